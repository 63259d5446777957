"""Rewrite the golden reports from the current checker: python tests/golden/update.py (then review the diff)."""

import json
from pathlib import Path

from kbgrules.core.check import check_text

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    for log in sorted((ROOT / "examples").glob("*/*.log")):
        out = ROOT / "tests" / "golden" / log.parent.name / (log.stem + ".json")
        out.parent.mkdir(parents=True, exist_ok=True)
        extra = log.with_name(log.stem + "-rules")  # a log's own rule data (e.g. godzilla-rules)
        rules = (str(extra),) if extra.is_dir() else ()
        report = check_text(str(log.relative_to(ROOT)), log.read_text(encoding="utf-8"), rules).to_json()
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(out.relative_to(ROOT))


if __name__ == "__main__":
    main()
