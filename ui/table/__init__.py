"""Card tables: shared infrastructure (cards, hand strip, seats, trick area, bot driver) and one
screen per game (`meri.py` + `meri.kv`; Tractor and Chắn add theirs the same way)."""
