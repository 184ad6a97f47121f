"""What each AI level measurably does: one figure per level and game, the one owner of them.

Each figure is an arena run of the level (A) against a weaker opponent (B) on duplicate deals
(each deal played twice, the seats swapped; Chắn: one A bot against three B, in every seat),
seed 1 (the searching levels with `PARLOR_SEARCH_CLOCK=cpu`): the mean per deal with its 95 % interval. Easy and normal are
measured against the heuristic (the rules of thumb), hard against normal. The Settings screen
shows these figures under the AI level row, and the README's "AI opponents" section quotes the
same ones: when a level changes, measure it again and update both here and there.
"""

from __future__ import annotations

from dataclasses import dataclass

POINTS = "points/deal"  #: Meri: the level's team points ahead per deal
LEVELS_UP = "levels/deal"  #: Tractor: the level's team levels ahead per deal
WINS = "win %"  #: Chắn: the share of deals the one A bot wins (par 25 %: one of four players)
PAR = {POINTS: 0.0, LEVELS_UP: 0.0, WINS: 25.0}  #: the figure of a level as strong as B


@dataclass(frozen=True)
class LevelFigure:
    """One level against `opponent` in one game: `mean` [`low`, `high`] in `unit` over `deals`
    duplicate deals, measured by `command`."""

    opponent: str  # "heuristic" or "normal"
    mean: float
    low: float
    high: float
    deals: int
    unit: str  # POINTS, LEVELS_UP or WINS
    command: str

    @property
    def par(self) -> float:
        """The figure of a level exactly as strong as its opponent."""
        return PAR[self.unit]

    @property
    def level_with(self) -> bool:
        """The interval holds par: not measurably stronger nor weaker than the opponent."""
        return self.low <= self.par <= self.high

    def summary(self) -> str:
        """The figure as the README quotes it, e.g. "+0.459 levels/deal [+0.424, +0.494] over
        500 deals" or "27.1 % wins [26.2, 28.1] (par 25 %) over 1000 deals"."""
        if self.unit == WINS:
            return (f"{self.mean:g} % wins [{self.low:g}, {self.high:g}] (par {self.par:g} %) "
                    f"over {self.deals} deals")
        shown = (f"{self.mean:+g} {self.unit} [{self.low:+g}, {self.high:+g}] "
                 f"over {self.deals} deals")
        return shown.replace("-", "−")


def _arena(game: str, a: str, b: str, deals: int) -> str:
    return (f"PARLOR_SEARCH_CLOCK=cpu python -m engine arena {game} --a {a} --b {b} "
            f"--deals {deals} --seed 1 --out {game}-{a}-{b}.jsonl")


def _easy(game: str) -> str:
    return (f"python -m engine arena {game} --a easy --b heuristic --deals 2000 --seed 1 "
            f"--jobs 1 --out {game}-easy-heuristic.jsonl")


#: level -> game -> its figure; `deals` is what was played. Meri's levels keep the learned
#: policy's move first (`engine.info.meri`, `AiInfo.lead`): measured as the arena kinds
#: `normal-policy` / `hard-policy`, which make the same decisions as `normal` / `hard` now; its
#: hard run was stopped at a session's deadline, before the command's 200 deals.
FIGURES: dict[str, dict[str, LevelFigure]] = {
    "easy": {
        "meri": LevelFigure("heuristic", -0.147, -0.227, -0.068, 2000, POINTS, _easy("meri")),
        "tractor": LevelFigure("heuristic", -0.182, -0.199, -0.166, 2000, LEVELS_UP,
                               _easy("tractor")),
        "chan": LevelFigure("heuristic", 19.7, 19.1, 20.3, 2000, WINS, _easy("chan")),
    },
    "normal": {
        "meri": LevelFigure("heuristic", 1.88, 1.619, 2.141, 300, POINTS,
                            _arena("meri", "normal", "heuristic", 300)),
        "tractor": LevelFigure("heuristic", 0.459, 0.424, 0.494, 500, LEVELS_UP,
                               _arena("tractor", "normal", "heuristic", 500)),
        "chan": LevelFigure("heuristic", 27.1, 26.2, 28.1, 1000, WINS,
                            _arena("chan", "normal", "heuristic", 1000)),
    },
    "hard": {
        "meri": LevelFigure("normal", 0.285, 0.092, 0.478, 200, POINTS,
                            _arena("meri", "hard", "normal", 200)),
        "tractor": LevelFigure("normal", 0.058, 0.004, 0.111, 200, LEVELS_UP,
                               _arena("tractor", "hard", "normal", 200)),
        "chan": LevelFigure("normal", 25.6, 24.3, 26.9, 500, WINS,
                            _arena("chan", "hard", "normal", 500)),
    },
}


def figures(level: str) -> dict[str, LevelFigure]:
    """The figures of `level` by game; `KeyError` naming the levels if it is not one."""
    try:
        return FIGURES[level]
    except KeyError:
        raise KeyError(f"unknown level {level!r} (known: {', '.join(FIGURES)})") from None
