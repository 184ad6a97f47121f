"""The names of the bot kinds and of the levels a player picks: the one owner of these names.

Kept apart from `engine.ai.bots` (which imports every game's AI) so that the settings screen, the
config schema and the UI can name the levels without loading any bot.
"""

KINDS = ("random", "heuristic", "easy", "normal", "search", "hard", "normal-model",
         "normal-nomodel")
LEVELS = ("easy", "normal", "hard")  # what a player picks in the settings
DEFAULT_LEVEL = "normal"
#: `normal-model` / `normal-nomodel` (arena and benches only, never a player's level): the normal
#: level with / without the learned evaluations (`engine.ai.learned`), to measure what they add.
