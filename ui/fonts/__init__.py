"""Fonts shipped with Parlor (a package so that the wheel and bundles carry its files)."""
