"""JSON Schema validation of rule-data files, with errors mapped back to YAML lines.

jsonschema is imported here only, so ``import kbgrules`` stays light.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from kbgrules.core.yamlsafe import YamlDocument, YamlPath
from kbgrules.errors import Diagnostic

SCHEMA_BASE = "https://kbgrules.invalid/schema/"


def schema_dir(data_root: Path) -> Path:
    return data_root / "schema"


Roots = Path | Sequence[Path]
"""One schema folder, or several (the shipped one, then a plug-in game's: :func:`plugin_schema_problems`)."""


def _roots(schema_root: Roots) -> tuple[str, ...]:
    return (str(schema_root),) if isinstance(schema_root, Path) else tuple(str(r) for r in schema_root)


@lru_cache(maxsize=8)
def _registry(roots: tuple[str, ...]) -> tuple[Any, dict[str, Any]]:
    from referencing import Registry, Resource

    schemas: dict[str, Any] = {}
    for root in roots:
        for p in sorted(Path(root).glob("*.schema.json")):
            schema = json.loads(p.read_text(encoding="utf-8"))
            schema.setdefault("$id", SCHEMA_BASE + p.name)  # a plug-in's relative $refs resolve beside ours
            schemas.setdefault(p.name, schema)
    registry: Any = Registry().with_resources(
        (SCHEMA_BASE + name, Resource.from_contents(s)) for name, s in schemas.items()
    )
    return registry, schemas


def schema_name_for(kind: Any, game: Any, schema_root: Roots) -> str | None:
    """The schema file for a file of ``kind`` for ``game``, or None if the kind is unknown."""
    _, schemas = _registry(_roots(schema_root))
    if not isinstance(kind, str):
        return None
    if kind in ("edition", "variant"):
        return "overlay.schema.json"
    if isinstance(game, str) and f"{game}.{kind}.schema.json" in schemas:
        return f"{game}.{kind}.schema.json"
    if f"{kind}.schema.json" in schemas and kind != "common":
        return f"{kind}.schema.json"
    return None


def hint(err: Any, doc: YamlDocument, path: YamlPath) -> str:
    """Explain type errors caused by YAML reading an unquoted scalar as a number or boolean."""
    if err.validator != "type":
        return ""
    expected = err.validator_value
    wants_string = expected == "string" or (isinstance(expected, list) and "string" in expected)
    plain = doc.mark(path).plain
    if wants_string and plain is not None and not isinstance(err.instance, str):
        return f' (YAML read the unquoted {plain} as {type(err.instance).__name__}; write "{plain}")'
    return ""


def _message(err: Any) -> str:
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = set((err.schema.get("properties") or {}).keys())
        extra = [k for k in err.instance if k not in allowed]
        if extra and allowed:
            from kbgrules.core.closest import did_you_mean

            hint = did_you_mean(str(extra[0]), sorted(allowed)) or f"; allowed here: {', '.join(sorted(allowed))}"
            return f"unknown key {extra[0]!r}{hint}"
    if err.validator == "not":
        return f"{err.instance!r} is not allowed here"
    if err.validator == "required":
        return str(err.message).replace("is a required property", "is required")
    if err.validator == "const":
        return f"must be {err.validator_value!r}, not {err.instance!r}"
    if err.validator == "enum":
        from kbgrules.core.closest import did_you_mean

        known = [str(v) for v in err.validator_value]
        hint = did_you_mean(err.instance, known) if isinstance(err.instance, str) else ""
        return f"{err.instance!r} is not one of: {', '.join(known)}{hint}"
    if err.validator == "pattern":
        return f"{err.instance!r} does not match the required form {err.validator_value}"
    msg = str(err.message)
    return msg if len(msg) <= 200 else msg[:197] + "..."


def _leaf_errors(errors: Iterable[Any]) -> Iterable[Any]:
    for err in errors:
        if err.context and err.validator in ("anyOf", "oneOf"):
            yield from _leaf_errors(err.context)
        else:
            yield err


def validate_instance(
    instance: Any,
    schema_name: str,
    schema_root: Roots,
    locate: Any,
    fragment: str = "",
) -> list[Diagnostic]:
    """Validate ``instance``; ``locate(path, key, hint_fn)`` turns a data path into a Diagnostic."""
    from jsonschema import Draft202012Validator

    registry, schemas = _registry(_roots(schema_root))
    schema: Any = {"$ref": SCHEMA_BASE + schema_name + fragment} if fragment else schemas[schema_name]
    validator = Draft202012Validator(schema, registry=registry)
    out: list[Diagnostic] = []
    for err in sorted(_leaf_errors(validator.iter_errors(instance)), key=lambda e: list(map(str, e.absolute_path))):
        path: YamlPath = tuple(err.absolute_path)
        key = False
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = set((err.schema.get("properties") or {}).keys())
            extra = [k for k in err.instance if k not in allowed]
            if extra:
                path = (*path, extra[0])
                key = True
        if err.validator == "propertyNames":
            key = True
        out.append(locate(path, key, _message(err), err))
    return sorted(out, key=lambda d: (d.file, d.line, d.col))


def validate_document(doc: YamlDocument, schema_root: Roots) -> list[Diagnostic]:
    """Validate one parsed file against the schema its ``kind`` names."""
    data = doc.data
    if not isinstance(data, dict):
        return [doc.diag((), "schema", "a rule file must be a mapping with a 'kind' key")]
    kind = data.get("kind")
    game = data.get("game", data.get("id"))
    name = schema_name_for(kind, game, schema_root)
    if name is None:
        _, schemas = _registry(_roots(schema_root))
        owned = [n.split(".")[:2] for n in schemas if n.count(".") == 3]  # GAME.KIND.schema.json
        tables = sorted({k for g, k in owned if k != "game" and (g == game or not isinstance(game, str))})
        known = ", ".join(["game", "rules", "faq", "aliases", "glossary", "edition", "variant", *tables])
        if kind is None:
            return [doc.diag((), "unknown-kind", f"the file has no 'kind'; expected one of {known}")]
        if kind in tables or kind == "game":
            return [doc.diag(("kind",), "unknown-kind", f"kind {kind!r} does not apply to game {game!r}")]
        return [doc.diag(("kind",), "unknown-kind", f"unknown kind {kind!r}; expected one of {known}")]

    def locate(path: YamlPath, key: bool, message: str, err: Any) -> Diagnostic:
        return doc.diag(path, "schema", message + hint(err, doc, path), key=key)

    return validate_instance(data, name, schema_root, locate)


def plugin_schema_problems(game: str, folder: Path, shown: str) -> list[Diagnostic]:
    """What is wrong with a plug-in game's ``schema`` folder (``shown``: how its path is written): it
    must hold ``GAME.game.schema.json`` and only files named ``GAME.KIND.schema.json``, each a JSON
    Schema whose ``$id``, if any, is its name under the shipped schemas' base."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    out: list[Diagnostic] = []
    names = sorted(p.name for p in folder.glob("*.schema.json")) if folder.is_dir() else []
    if f"{game}.game.schema.json" not in names:
        out.append(Diagnostic(f"{shown}/{game}.game.schema.json", 1, 1, "plugin-schema",
                              f"a plug-in game needs the schema of its game file: {game}.game.schema.json"))
    for name in names:
        file = f"{shown}/{name}"
        if not name.startswith(f"{game}."):
            out.append(Diagnostic(file, 1, 1, "plugin-schema",
                                  f"a plug-in's schemas are named {game}.KIND.schema.json"))
            continue
        try:
            schema = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            out.append(Diagnostic(file, 1, 1, "plugin-schema", f"cannot be read: {exc}"))
            continue
        except json.JSONDecodeError as exc:
            out.append(Diagnostic(file, exc.lineno, exc.colno, "plugin-schema", f"not JSON: {exc.msg}"))
            continue
        if not isinstance(schema, dict) or schema.get("$id", SCHEMA_BASE + name) != SCHEMA_BASE + name:
            out.append(Diagnostic(file, 1, 1, "plugin-schema", f"a JSON Schema object whose $id, if given, is "
                                                               f"{SCHEMA_BASE + name}"))
            continue
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as exc:
            out.append(Diagnostic(file, 1, 1, "plugin-schema", f"not a valid JSON Schema: {exc.message}"))
    return out
