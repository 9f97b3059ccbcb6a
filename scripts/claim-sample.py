#!/usr/bin/env python3
"""Draws a reproducible sample of claims about the original for a teaching review (issue 29).

    python3 scripts/claim-sample.py --seed 83 --per-pool 12 [--exclude FILE] > sample.md

Six pools, as the earlier reviews used them: walkthrough chapters (their templates), FAQ card fields, museum exhibit
fields, doc comments under Sources/ that speak of the original, the myths' truths, and the differences' "original"
side. A unit is one sentence (or one short field) that names a version or the original, printed with what a reader
sees around it: the section heading of a chapter sentence, the declaration a doc comment documents, the question of
an FAQ card, the exhibit of a museum field. `--exclude` (repeatable) takes a file of earlier units to leave out:
locations (`path:line`, one a line), or an earlier sample as this script printed it, whose units are then left out by
their text too (an edit above a sentence moves its line). The same seed over the same tree draws the same units, so a
review's figures can be reproduced.
"""
import argparse
import glob
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ABOUT_THE_ORIGINAL = re.compile(r"4\.\d|5\.\d|3\.\d|original|SDWebImage|upstream|Objective-C|\.m\b|\.h\b", re.I)
SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=[A-Z`(\"])")


def sentences(text):
    """The sentences of a text, never split inside parentheses (a reader reads an aside with its sentence)."""
    text = re.sub(r"\s+", " ", text).strip()
    pieces, start = [], 0
    for match in SENTENCE_END.finditer(text):
        before = text[start:match.start()]
        if before.count("(") <= before.count(")"):
            pieces.append(before)
            start = match.end()
    pieces.append(text[start:])
    return [s.strip() for s in pieces if len(s.strip()) > 25]


def chapter_units():
    for path in sorted((ROOT / "Docs/walkthrough/src").glob("[0-9][0-9]-*.md.in")):
        lines = path.read_text().splitlines()
        in_code = False
        paragraph, start = [], 0
        heading = ""
        def flush():
            for s in sentences(" ".join(paragraph)):
                if ABOUT_THE_ORIGINAL.search(s) and "{{" not in s:
                    yield (f"{path.relative_to(ROOT)}:{start}", s, f"in the section {heading!r}")
        for number, line in enumerate(lines, 1):
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            if not line.strip() or line.startswith("#") or line.startswith("|"):
                yield from flush()
                paragraph = []
                if line.startswith("#"):
                    heading = line.lstrip("# ").strip()
                if line.startswith("|") and ABOUT_THE_ORIGINAL.search(line) and not set(line) <= set("|-: "):
                    yield (f"{path.relative_to(ROOT)}:{number}", line.strip(), f"a table row in the section {heading!r}")
                continue
            if not paragraph:
                start = number
            paragraph.append(line.lstrip("-* "))
        yield from flush()


def json_context(data):
    """What a reader sees with a field: the card's question, the exhibit's or myth's title."""
    for key in ("question", "title", "myth", "id"):
        if isinstance(data.get(key), str):
            prefix = f"{data['id']}: " if key != "id" and isinstance(data.get("id"), str) else ""
            return f"{prefix}{data[key]}"
    return ""


def json_fields(pattern, fields, split=False):
    for path in sorted(glob.glob(str(ROOT / pattern))):
        data = json.loads(Path(path).read_text())
        context = json_context(data)
        for field in fields:
            value = data.get(field)
            if isinstance(value, str):
                texts = sentences(value) if split else [value]
                for text in texts:
                    if ABOUT_THE_ORIGINAL.search(text) or not split:
                        yield (f"{Path(path).relative_to(ROOT)} {field}", text, context)
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, dict) and isinstance(item.get("answer"), str):
                        yield (f"{Path(path).relative_to(ROOT)} {field}[{i}]", f"Q: {item.get('question')} A: {item['answer']}", context)


def declaration(lines, index):
    """The code line a comment block sits above (attributes skipped), or the end of the file."""
    for line in lines[index:]:
        stripped = line.strip()
        if stripped and not stripped.startswith("@"):
            return stripped[:110]
    return "the end of the file"


def doc_comment_units():
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        lines = path.read_text().splitlines()
        block, start = [], 0
        for number, line in enumerate(lines + [""], 1):
            stripped = line.strip()
            if stripped.startswith("///") or stripped.startswith("//"):
                if not block:
                    start = number
                block.append(stripped.lstrip("/").strip())
                continue
            if block:
                context = f"a comment above {declaration(lines, number - 1)!r}"
                for s in sentences(" ".join(block)):
                    if ABOUT_THE_ORIGINAL.search(s):
                        yield (f"{path.relative_to(ROOT)}:{start}", s, context)
                block = []


POOLS = {
    "chapters": chapter_units,
    "faq": lambda: json_fields("Docs/knowledge/faq/FAQ-*.json", ["short", "oneLine", "answer", "followUps"], split=True),
    "museum": lambda: json_fields("Museum/MUS-*/exhibit.json", ["title", "symptom", "mechanism", "lesson"], split=True),
    "doc comments": doc_comment_units,
    "myths": lambda: json_fields("Docs/knowledge/myths/*.json", ["truth", "trueIn", "then"], split=True),
    "differences": lambda: json_fields("Docs/knowledge/differences/*.json", ["original"]),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--per-pool", type=int, default=12)
    parser.add_argument("--exclude", action="append", default=[],
                        help="file of earlier units' locations, one a line, or an earlier sample")
    args = parser.parse_args()
    excluded, excluded_texts = set(), set()
    for name in args.exclude:
        for line in Path(name).read_text().splitlines():
            unit = re.match(r"\d+\. `([^`]+)`: (.*)", line)
            if unit:
                excluded.add(unit.group(1))
                excluded_texts.add(unit.group(2)[:70])
            elif line.strip() and not line.startswith(("#", " ")):
                excluded.add(line.strip())
    rng = random.Random(args.seed)
    print(f"# Claim sample, seed {args.seed}, {args.per_pool} a pool\n")
    number = 0
    for name, units in POOLS.items():
        pool = [u for u in dict.fromkeys(units()) if u[0] not in excluded and u[1][:70] not in excluded_texts]
        drawn = rng.sample(pool, min(args.per_pool, len(pool)))
        print(f"## {name} ({len(pool)} units, {len(drawn)} drawn)\n")
        for where, text, context in drawn:
            number += 1
            print(f"{number}. `{where}`: {text}")
            if context:
                print(f"   (context: {context})")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
