"""The package's layers, read from the sources with :mod:`ast` (docs/internals.md, "Layers").

Each module of ``src/conquian`` belongs to one layer; a module imports only from its own
layer or the layers below it, and no set of modules imports itself round a circle.  Imports
under ``if TYPE_CHECKING:`` are for the type checker only and never run: they are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "conquian"

#: Bottom to top.  A module's layer is the first whose prefix its name starts with (the
#: longest prefixes are tried first); the top layer, ``entry``, may import anything.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("support", ("conquian.speedups", "conquian._aliases", "conquian.i18n")),
    ("engine", ("conquian.engine",)),
    ("api", ("conquian",)),  # conquian/__init__.py: the public names, over the engine
    ("bots", ("conquian.bots",)),
    ("sessions", ("conquian.session", "conquian.simulate", "conquian.tournament", "conquian.present",
                  "conquian.words", "conquian.hints", "conquian.typed",
                  "conquian.review", "conquian.learn")),
    ("interfaces", ("conquian.envs", "conquian.analysis", "conquian.web", "conquian.tui", "conquian.learn.tui")),
    # the players' platform (accounts, ratings, friends...) stands on the table's modules of web/,
    # and the server, its sockets and its routes assemble both
    ("platform", ("conquian.web.platform",)),
    ("server", ("conquian.web.server", "conquian.web.sockets", "conquian.web.routes", "conquian.web.app",
                "conquian.web.rematch")),
    ("entry", ("conquian.cli", "conquian.__main__")),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    best, best_len = None, -1
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = name, len(prefix)
    assert best is not None, f"{module} is in no layer: add it to LAYERS and docs/internals.md"
    return best


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports at run time (at any depth of its code)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    me = module_name(path)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
                pkg = pkg[: len(pkg) - node.level + 1]
                base = ".".join([*pkg, base] if base else pkg)
            found.add(base)
            for alias in node.names:  # ``from conquian.bots import fill`` imports a module
                found.add(f"{base}.{alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m in modules and m != me}


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}
    modules = set(paths)
    return {m: imports_of(p, modules) for m, p in paths.items()}


def test_every_import_goes_down_or_across() -> None:
    """The engine imports nothing above it; bots nothing above bots; and so on (docs/internals.md)."""
    wrong = []
    for module, targets in sorted(graph().items()):
        for target in sorted(targets):
            if RANK[layer_of(target)] > RANK[layer_of(module)]:
                wrong.append(f"{module} ({layer_of(module)}) imports {target} ({layer_of(target)})")
    assert not wrong, "imports that go up a layer:\n" + "\n".join(wrong)


def test_no_import_circle() -> None:
    """No module imports itself through others (Tarjan's strongly connected components)."""
    edges = graph()
    # a package's __init__ re-exporting its own modules is not a circle: the edge from a module
    # to its parent package is implicit in Python and is not drawn here
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    assert not circles, f"import circles: {circles}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_over_750_lines(path: Path) -> None:
    """Each module is about one concern, and none is longer than 750 lines."""
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 750


#: What each module of a platform feature may not import: its rules know no HTTP and no SQL, its
#: storage no HTTP (docs/internals.md, "The players' platform").
FEATURE_PARTS = {"service": ("starlette", "sqlalchemy"), "storage": ("starlette",)}


def external_imports(path: Path) -> set[str]:
    """The top-level packages outside ``conquian`` that ``path`` imports at run time."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_platform_features_keep_rules_storage_and_routes_apart() -> None:
    """A feature's ``service`` imports neither Starlette nor SQLAlchemy, its ``storage`` no Starlette."""
    wrong, read = [], 0
    for part, banned in FEATURE_PARTS.items():
        for path in sorted((PACKAGE / "web" / "platform").glob(f"*/{part}.py")):
            read += 1
            for name in sorted(external_imports(path) & set(banned)):
                wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert read >= 10, "the platform's features are in web/platform/<feature>/{service,storage}.py"
    assert not wrong, "\n".join(wrong)
    # the check sees a break: the routes of a feature import Starlette
    assert "starlette" in external_imports(PACKAGE / "web" / "platform" / "accounts" / "routes.py")


def test_the_platform_is_above_the_table_and_below_the_server() -> None:
    """The layers inside web/: the table's modules, then the platform, then the server that assembles them."""
    assert RANK[layer_of("conquian.web.table")] < RANK[layer_of("conquian.web.platform.accounts.storage")]
    assert RANK[layer_of("conquian.web.platform.friends.routes")] < RANK[layer_of("conquian.web.server")]
    assert any((PACKAGE / "web" / "platform").glob("*/service.py"))


def test_the_checker_sees_a_circle_and_a_layer_break(tmp_path: Path) -> None:
    """The check itself works: a planted circle and an engine module importing a bot are found."""
    pkg = tmp_path / "conquian"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "engine" / "a.py").write_text("from conquian.engine import b\nimport conquian.bots.x\n")
    (pkg / "engine" / "b.py").write_text("from conquian.engine.a import thing\n")
    modules = {"conquian", "conquian.engine", "conquian.engine.a", "conquian.engine.b", "conquian.bots.x"}
    global PACKAGE
    saved, PACKAGE = PACKAGE, pkg
    try:
        a = imports_of(pkg / "engine" / "a.py", modules)
        b = imports_of(pkg / "engine" / "b.py", modules)
    finally:
        PACKAGE = saved
    assert a == {"conquian.engine", "conquian.engine.b", "conquian.bots.x"}
    assert b == {"conquian.engine.a"}
    assert RANK[layer_of("conquian.bots.x")] > RANK[layer_of("conquian.engine.a")]


def test_no_module_over_600_lines_and_no_class_over_350() -> None:
    """Rooms small enough to read: no module of the package (Python or the page's scripts) over
    600 lines, no class over 350; a room that grows past them is split by concern."""
    too_long = []
    files = sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")])
    assert len(files) > 200  # the package was read
    for path in files:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(PACKAGE).as_posix()
        if len(text.splitlines()) > 600:
            too_long.append(f"{name}: {len(text.splitlines())} lines")
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None \
                    and node.end_lineno - node.lineno + 1 > 350:
                too_long.append(f"{name}: class {node.name}, {node.end_lineno - node.lineno + 1} lines")
    assert not too_long
