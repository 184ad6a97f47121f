"""The import graph of Parlor's packages, read from the source (ast; nothing is imported).

Every `import` and `from … import` counts, wherever it stands (module level, inside a function,
under `if TYPE_CHECKING:`), so a cycle hidden behind a lazy import is still a cycle. The graph
must have no cycle; the layer table of docs/architecture.md holds (every module in a layer, every
import between layers one the page allows, kivy/websockets/gpiozero … only where it says); and
the layers of shared/design/architecture.md hold: the engine imports nothing of
ui/hardware/device/kivy; ui imports no hardware backend; hardware imports neither ui
nor engine. The AI's research tools (`engine.ai.tools`: arena, training, studies) sit on the
runtime AI and are reached only from the command line (`engine.cli`): no runtime module, nor the
app, imports them, so the bundle can leave them out. No package imports `scripts` (the benches and
probes live in scripts/bench, outside the product).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "ui", "hardware", "device")
#: The AI's research and measurement tools, and the one module that may reach them besides
#: themselves: the `python -m engine` command line (`arena`, `study`).
TOOLS = "engine.ai.tools"
TOOLS_CALLERS = ("engine.cli",)

Graph = dict[str, set[str]]


def modules_of(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of `packages` under `root`, by dotted name (a package is its __init__)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, is_package: bool) -> set[str]:
    """The dotted names `name` imports (absolute, relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = name.split(".") if is_package else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)  # submodules, if any
    return out


def build_graph(root: Path, packages: Iterable[str] = PACKAGES) -> tuple[Graph, set[str]]:
    """(edges between the project's own modules, every external top-level name imported)."""
    modules = modules_of(root, packages)
    graph: Graph = {name: set() for name in modules}
    external: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for target in imports_of(name, path, path.name == "__init__.py"):
            if target in modules:
                if target != name:
                    graph[name].add(target)
            elif target.split(".")[0] not in packages:
                external[name].add(target.split(".")[0])
            # else: `from pkg import name` where name is not a module (already counted as pkg)
    return graph, {f"{m}:{e}" for m, names in external.items() for e in names}


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def is_tools(module: str) -> bool:
    return module == TOOLS or module.startswith(TOOLS + ".")


def layer_breaches(graph: Graph, external: set[str]) -> list[str]:
    """Every import that crosses a layer the wrong way, as `importer -> imported`."""
    breaches = []
    for module, targets in graph.items():
        top = module.split(".")[0]
        for target in targets:
            other = target.split(".")[0]
            if top == "engine" and other in ("ui", "hardware", "device"):
                breaches.append(f"{module} -> {target}")
            if top == "hardware" and other in ("ui", "engine", "device"):
                breaches.append(f"{module} -> {target}")
            if top == "ui" and other in ("hardware", "device"):
                breaches.append(f"{module} -> {target}")
            if (is_tools(target) and not is_tools(module) and module not in TOOLS_CALLERS):
                breaches.append(f"{module} -> {target}")
    for pair in external:
        module, name = pair.split(":")
        top = module.split(".")[0]
        if top in ("engine", "hardware") and name == "kivy":
            breaches.append(f"{module} -> kivy")
        if top in ("engine", "ui") and name in ("gpiozero", "serial", "lgpio", "RPi"):
            breaches.append(f"{module} -> {name}")
        if name == "scripts":
            breaches.append(f"{module} -> scripts")
    return sorted(breaches)


def test_no_import_cycles() -> None:
    graph, _ = build_graph(ROOT)
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_layers_hold() -> None:
    graph, external = build_graph(ROOT)
    breaches = layer_breaches(graph, external)
    assert not breaches, "layer breaches:\n" + "\n".join(breaches)


def test_the_graph_is_the_real_one() -> None:
    """The reader sees real edges (so an empty cycle list means something)."""
    graph, external = build_graph(ROOT)
    assert len(graph) > 100
    assert "engine.errors" in graph["engine.records"]
    assert "engine.ai.search" in graph["engine.ai.bots"]
    assert "engine.ai.tools.arena" in graph["engine.cli"]
    assert "engine.ai.bots" in graph["engine.ai.tools.arena"]
    assert "device.cli:argparse" in external or any(e.startswith("device.") for e in external)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("b_text", [
    "from engine import a\n",
    "def later():\n    from engine.a import X\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import X\n",
])
def test_a_planted_cycle_is_found(tmp_path: Path, b_text: str) -> None:
    """A cycle through a module-level, a lazy or a typing-only import is reported by name."""
    _write(tmp_path, {
        "engine/__init__.py": "",
        "engine/a.py": "from engine.b import Y\nX = 1\n",
        "engine/b.py": b_text + "Y = 2\n",
        "engine/c.py": "import engine.a\n",
    })
    graph, _ = build_graph(tmp_path, ("engine",))
    assert cycles(graph) == [["engine.a", "engine.b"]]


def test_a_planted_breach_is_found(tmp_path: Path) -> None:
    _write(tmp_path, {
        "engine/__init__.py": "", "engine/x.py": "import kivy\nfrom ui import y\n",
        "ui/__init__.py": "", "ui/y.py": "from hardware.gpio import Z\n",
        "hardware/__init__.py": "", "hardware/gpio.py": "Z = 1\n",
        "device/__init__.py": "", "device/z.py": "def later():\n    from scripts.bench import x\n",
    })
    graph, external = build_graph(tmp_path)
    assert layer_breaches(graph, external) == [
        "device.z -> scripts", "engine.x -> kivy", "engine.x -> ui", "engine.x -> ui.y",
        "ui.y -> hardware.gpio"]


def test_a_runtime_import_of_the_ai_tools_is_found(tmp_path: Path) -> None:
    """The runtime AI and the app may not import the tools; the tools and the command line may."""
    _write(tmp_path, {
        "engine/__init__.py": "", "engine/ai/__init__.py": "",
        "engine/ai/bots.py": "def later():\n    from engine.ai.tools.arena import play\n",
        "engine/ai/tools/__init__.py": "",
        "engine/ai/tools/arena.py": "from engine.ai import bots\nplay = 1\n",
        "engine/ai/tools/levels.py": "from engine.ai.tools.arena import play\n",
        "engine/cli.py": "from engine.ai.tools import arena\n",
        "ui/__init__.py": "", "ui/app.py": "from engine.ai.tools import levels\n",
        "hardware/__init__.py": "", "device/__init__.py": "",
    })
    graph, external = build_graph(tmp_path)
    assert layer_breaches(graph, external) == [
        "engine.ai.bots -> engine.ai.tools.arena", "ui.app -> engine.ai.tools",
        "ui.app -> engine.ai.tools.levels"]


# -- docs/architecture.md: its layer table, checked against the tree ------------------------------
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _table_rows(text: str, marker: str) -> list[list[str]]:
    """The body rows of the markdown table between `<!-- marker: … -->` and `<!-- /marker -->`,
    each a list of its cells."""
    start = text.index(f"<!-- {marker}:")
    end = text.index(f"<!-- /{marker} -->", start)
    rows = [line.strip() for line in text[start:end].splitlines()[1:] if line.strip()]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def _names(cell: str) -> list[str]:
    """`a`, `b` and plain words, comma-separated (— is none)."""
    return [] if cell in ("—", "") else [part.strip().strip("`") for part in cell.split(",")]


def read_layers(text: str) -> tuple[dict[str, list[str]], dict[str, set[str]], dict[str, set[str]]]:
    """(layer -> its package prefixes, layer -> the layers it may import, third-party package ->
    the layers that may import it), read from the architecture page."""
    prefixes: dict[str, list[str]] = {}
    allowed: dict[str, set[str]] = {}
    for layer, packages, _what, may in _table_rows(text, "layers"):
        prefixes[layer] = _names(packages)
        allowed[layer] = set(_names(may))
    third = {package.strip("`"): set(_names(who))
             for package, who in _table_rows(text, "third-party")}
    return prefixes, allowed, third


def layer_of(module: str, prefixes: dict[str, list[str]]) -> str | None:
    """The layer whose prefix is the longest that matches `module` (None: no layer)."""
    best, length = None, -1
    for layer, packages in prefixes.items():
        for prefix in packages:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
                best, length = layer, len(prefix)
    return best


def architecture_breaches(graph: Graph, external: set[str], text: str) -> list[str]:
    """Every module no layer holds, every import between layers the page does not allow, every
    third-party import from a layer the page does not name for it."""
    prefixes, allowed, third = read_layers(text)
    unknown = sorted(set().union(*allowed.values()) - set(prefixes))
    assert not unknown, f"the layer table allows imports of unknown layers {unknown}"
    assert set().union(*third.values()) <= set(prefixes)
    out = []
    for module, targets in graph.items():
        layer = layer_of(module, prefixes)
        if layer is None:
            out.append(f"{module}: in no layer")
            continue
        for target in targets:
            other = layer_of(target, prefixes)
            if other is not None and other != layer and other not in allowed[layer]:
                out.append(f"{module} ({layer}) -> {target} ({other})")
    for pair in external:
        module, name = pair.split(":")
        layer = layer_of(module, prefixes)
        if name in third and layer not in third[name]:
            out.append(f"{module} ({layer}) -> {name}")
    return sorted(out)


def test_the_architecture_page_holds() -> None:
    """docs/architecture.md's layer table is the tree's: every module is in a layer and every
    import between layers (and of kivy, websockets, gpiozero …) is one the page allows."""
    graph, external = build_graph(ROOT)
    text = ARCHITECTURE.read_text(encoding="utf-8")
    breaches = architecture_breaches(graph, external, text)
    assert not breaches, "imports docs/architecture.md does not allow:\n" + "\n".join(breaches)
    prefixes, _, _ = read_layers(text)
    for layer, packages in prefixes.items():  # no layer names a package that is not there
        for prefix in packages:
            assert prefix in graph, f"layer {layer}: no module {prefix}"


def test_an_import_the_page_does_not_allow_is_found(tmp_path: Path) -> None:
    """The check reads the page: the table layer importing the AI, a game importing kivy and a
    module outside every layer are each reported."""
    _write(tmp_path, {
        "engine/__init__.py": "", "engine/table/__init__.py": "",
        "engine/table/loop.py": "def later():\n    from engine.ai.bots import make_bot\n",
        "engine/ai/__init__.py": "", "engine/ai/bots.py": "from engine.table import loop\n",
        "engine/meri/__init__.py": "import kivy\n",
        "ui/__init__.py": "", "hardware/__init__.py": "", "device/__init__.py": "",
        "extra/__init__.py": "",
    })
    graph, external = build_graph(tmp_path, ("engine", "ui", "hardware", "device", "extra"))
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert architecture_breaches(graph, external, text) == [
        "engine.meri (games) -> kivy", "engine.table.loop (table) -> engine.ai.bots (AI)",
        "extra: in no layer"]
