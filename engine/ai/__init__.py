"""Bots: one interface (`Bot.choose`), a random bot, per-game heuristic and search bots."""
