"""The names of the bot kinds and of the levels a player picks: the one owner of these names.

Kept apart from `engine.ai.bots` (which imports every game's AI) so that the settings screen, the
config schema and the UI can name the levels without loading any bot.
"""

KINDS = ("random", "heuristic", "easy", "normal", "search", "hard", "normal-model",
         "normal-nomodel", "ismcts", "puct", "puct-deep", "policy",
         "normal-policy", "hard-policy", "normal-nopolicy", "hard-nopolicy", "puct-policy")
LEVELS = ("easy", "normal", "hard")  # what a player picks in the settings
DEFAULT_LEVEL = "normal"
#: `normal-model` / `normal-nomodel` (arena and benches only, never a player's level): the normal
#: level with / without the learned evaluations (`engine.ai.learned`), to measure what they add.
#: `ismcts` (arena and benches only, not yet a level): the information-set tree search
#: (`engine.ai.ismcts`) with its game's default budget; `ismcts:N` the same with N iterations.
#: `puct` (and `puct:N`; arena and benches only) the same tree search selecting by PUCT with the
#: game's heuristic as its prior (`engine.ai.ismcts_tree`); `puct-deep` with the prior below the
#: root only (the root's moves by UCB, as `ismcts`).
#: `policy` (arena and benches only): the game's learned move policy alone, its most likely move
#: (`engine.ai.policy.PolicyBot`; the heuristic where the game has no policy weights);
#: `normal-policy` / `hard-policy` those levels' search with the policy's move as the candidate
#: kept unless another is clearly better (instead of the heuristic's), whatever the game's
#: `AiInfo.lead` says; `normal-nopolicy` / `hard-nopolicy` those levels with the heuristic's
#: move first (what the levels were before a game's lead was switched on).
TREE_KIND = "ismcts"
PUCT_KIND = "puct"
PUCT_DEEP_KIND = "puct-deep"
#: `puct-policy` (arena and benches only): PUCT with the game's learned policy as the prior
#: (`engine.ai.policy`; the heuristic's move where the game has none), PUCT's budget.
PUCT_POLICY_KIND = "puct-policy"
TREE_KINDS = (TREE_KIND, PUCT_KIND)


def tree_iterations(kind: str) -> int | None:
    """N of a kind `ismcts:N` or `puct:N` (a positive integer), else None."""
    head, sep, tail = kind.partition(":")
    if head not in TREE_KINDS or not sep or not tail.isdigit() or int(tail) < 1:
        return None
    return int(tail)


def is_kind(kind: str) -> bool:
    """Whether `kind` names a bot: one of `KINDS`, or `ismcts:N` / `puct:N`."""
    return kind in KINDS or tree_iterations(kind) is not None
