"""Rewrite the plug-in's golden reports from the current checker (then review the diff):
python tests/plugins/kbg-nothanks/tests/update_golden.py"""

import json
from pathlib import Path

from kbgrules.core.check import check_text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]


def main() -> None:
    for log in sorted((HERE / "golden").glob("*.log")):
        report = check_text(str(log.relative_to(ROOT)), log.read_text(encoding="utf-8")).to_json()
        out = log.with_suffix(".json")
        out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(out.relative_to(ROOT))


if __name__ == "__main__":
    main()
