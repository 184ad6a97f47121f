"""The sound files Parlor plays, made by scripts/make_sounds.py (a package so that the wheel
and bundles carry its files)."""
