"""Issue 25: every function and method docs/library.md shows answers an argument of the wrong kind with a
TypeError that names the parameter, or a ValueError / KbgError for a value it cannot use; never an
AttributeError, KeyError, IndexError or OverflowError from deep inside, and never a walk of the disk.

The calls (bench/fuzz.py ``public_calls``, which the fuzzer draws from too) are the ones the docs show,
with arguments that work; the test puts each wrong value in each place in turn."""

from __future__ import annotations

import pytest

from .conftest import fuzz_module

FUZZ = fuzz_module()
CALLS = FUZZ.public_calls()
CASES = [(label, i) for label, (_, good) in CALLS.items() for i in range(len(good))]


@pytest.mark.parametrize(("label", "place"), CASES, ids=[f"{label}-{i}" for label, i in CASES])
def test_a_wrong_argument_is_a_type_or_value_error(label: str, place: int) -> None:
    found = [f for wrong in FUZZ.WRONG if (f := FUZZ.wrong_call(label, place, wrong, CALLS))]
    assert not found, "\n".join(found)


def test_every_call_works_with_its_good_arguments() -> None:
    for factory, good in CALLS.values():
        result = factory()(*good)
        if hasattr(result, "__next__"):
            list(result)


def test_the_calls_cover_the_documented_api() -> None:
    """Each public function of ``kbgrules`` with parameters, and each method with parameters that
    docs/library.md calls on a game, a ruleset, a kingdom, a report or a result, is in the table."""
    import inspect
    import re

    import kbgrules
    from kbgrules.kingdomino import kingdom
    from kbgrules.kingdomino.kingdom import Kingdom

    from .conftest import ROOT

    if kingdom.__file__.endswith(".so"):
        pytest.skip("compiled (docs/scale.md): its methods have no signatures to read; the pure run checks the table")
    labels = {label.rsplit(".", 1)[-1] for label in CALLS}
    public = {n for n in kbgrules.__all__ if inspect.isfunction(getattr(kbgrules, n))
              and inspect.signature(getattr(kbgrules, n)).parameters}
    assert public <= labels, public - labels
    kd, kot = (kbgrules.new_game(g, ["Ann", "Bob"]) for g in ("kingdomino", "king-of-tokyo"))
    report = FUZZ._report(FUZZ.KD_LOG)
    objects = [kd, kot, kd.rs, kot.rs, Kingdom.for_rules(kd.rs), report, report.result,
               FUZZ._report(FUZZ.KOT_LOG).result]
    called = set(re.findall(r"\.([a-z_]+)\(", (ROOT / "docs" / "library.md").read_text(encoding="utf-8")))

    def takes_arguments(name: str) -> bool:
        for obj in objects:
            attr = inspect.getattr_static(obj, name, None)
            if inspect.isfunction(attr) or isinstance(attr, classmethod):
                return bool([p for p in inspect.signature(getattr(obj, name)).parameters.values()
                             if p.default is inspect.Parameter.empty])
        return False

    documented = {n for n in called if takes_arguments(n)}
    assert len(documented) > 10 and documented <= labels, documented - labels
