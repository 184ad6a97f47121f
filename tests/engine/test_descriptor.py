"""Each game's descriptor (`engine.descriptor.GameInfo`, `engine.info.<game>`) is complete, light
(reading it imports no game and no AI) and its lazy references resolve; the per-game tables built
from it agree with it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import registry
from engine.descriptor import AiInfo, GameInfo, load

NAMES = registry.names()


def test_every_game_has_a_descriptor_in_order():
    infos = registry.infos()
    assert {"meri", "tractor", "chan"} <= set(NAMES) == {i.name for i in infos}
    assert [i.name for i in infos] == list(registry.LENGTHS) == list(registry.TITLES)
    assert [i.order for i in infos] == sorted({i.order for i in infos})  # in order, each its own


@pytest.mark.parametrize("name", NAMES)
def test_the_descriptor_is_complete(name):
    info = registry.info(name)
    assert isinstance(info, GameInfo) and info.name == name
    assert info.title and info.length_doc and info.package and info.seatcards
    assert info.lengths and info.default_length in info.lengths
    assert all(n >= 0 for n in info.lengths)
    ai = info.ai
    assert isinstance(ai, AiInfo)  # every game Parlor plays has bots and a coach
    assert ai.heuristic and ai.adapter and ai.tree
    assert ai.normal["playouts"] > 0 and ai.hard["playouts"] >= ai.normal["playouts"]
    assert ai.tree_budget["iterations"] > 0
    assert ai.coach_floor > 0 and ai.coach_unit
    assert all(ai.figure)
    assert registry.ai_infos()[name] is ai


@pytest.mark.parametrize("name", NAMES)
def test_the_registered_game_carries_its_descriptor(name):
    info, game = registry.info(name), registry.get(name)
    assert (game.name, game.title, game.lengths, game.default_length) == (
        info.name, info.title, info.lengths, info.default_length)
    assert (registry.title(name), registry.lengths(name), registry.default_length(name)) == (
        info.title, info.lengths, info.default_length)


@pytest.mark.parametrize("name", NAMES)
def test_the_lazy_references_resolve(name):
    from engine.ai.ismcts import TreeBudget
    from engine.ai.search import Budget

    info = registry.info(name)
    for ref in info.references():
        assert load(ref) is not None, ref
    assert load(info.package).GAME is registry.get(name)
    cards = load(info.seatcards)
    assert all(callable(getattr(cards, f)) for f in ("hand_codes", "table_codes", "on_table",
                                                     "done"))
    ai = info.ai
    assert all(isinstance(load(r), type) for r in (ai.heuristic, ai.adapter, ai.tree))
    Budget(**ai.normal), Budget(**ai.hard), TreeBudget(**ai.tree_budget)
    if info.invariants is not None:
        assert callable(load(info.invariants))
    if info.studies is not None:
        study = load(info.studies)
        assert study.KINDS and callable(study.run)


def test_the_tables_are_built_from_the_descriptors():
    from engine.ai import bots, coach
    from engine.ai.search import Budget

    for name, ai in registry.ai_infos().items():
        profile = bots.PROFILES[name]
        assert profile.heuristic is load(ai.heuristic) and profile.adapter is load(ai.adapter)
        assert (profile.normal, profile.hard) == (Budget(**ai.normal), Budget(**ai.hard))
        assert bots.TREE_BUDGETS[name].iterations == ai.tree_budget["iterations"]
        assert coach.MIN_GAIN[name] == ai.coach_floor and coach.UNITS[name] == ai.coach_unit
    assert list(bots.PROFILES) == list(registry.ai_infos())


def test_reading_the_descriptors_imports_no_game_and_no_ai():
    code = ("import sys; from engine import registry; "
            "[(registry.title(n), registry.lengths(n), registry.default_length(n), "
            "registry.info(n).ai) for n in registry.names()]; "
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['engine', 'meri'], ['engine', 'tractor'], ['engine', 'chan'], ['engine', 'ai'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_an_unknown_game_has_no_descriptor():
    with pytest.raises(KeyError, match="unknown game 'whist'"):
        registry.info("whist")


def test_the_descriptor_is_frozen():
    info = registry.info("meri")
    with pytest.raises(AttributeError):
        info.title = "Meri"  # type: ignore[misc]
    with pytest.raises(TypeError):
        info.ai.normal["playouts"] = 1  # type: ignore[index]


def test_a_default_length_not_offered_is_refused():
    with pytest.raises(ValueError, match="default length 5 not offered"):
        GameInfo(name="x", title="X", order=9, package="x", lengths=(1, 4), default_length=5,
                 length_doc="", seatcards="x")
