"""Reads the parity spec, Docs/spec/PARITY.md: its IDs in order, each ID's text, and which IDs are planned.

An item is a line `- ID text`, its continuation lines indented by two spaces. Items under the heading
`## Planned …` are specified but not built yet. Used by scripts/parity-ledger.py and scripts/parity-coverage.
Standard library only.
"""
import re
from dataclasses import dataclass, field

SPEC = 'Docs/spec/PARITY.md'
ID_PATTERN = re.compile(r'[A-Z][A-Z0-9]*-\d+')


@dataclass
class Spec:
    ids: list = field(default_factory=list)
    behaviours: dict = field(default_factory=dict)
    planned: list = field(default_factory=list)


def parse(text):
    spec, current, in_planned = Spec(), None, False
    for line in text.split('\n'):
        if line.startswith('## '):
            in_planned = line[3:].lower().startswith('planned')
            current = None
            continue
        match = re.match(r'^- (' + ID_PATTERN.pattern + r')\s+(.*)$', line)
        if match:
            current = match.group(1)
            spec.ids.append(current)
            spec.behaviours[current] = match.group(2).strip()
            if in_planned:
                spec.planned.append(current)
        elif current and line.startswith('  ') and line.strip():
            spec.behaviours[current] += ' ' + line.strip()
        else:
            current = None
    return spec


def read(path):
    with open(path, encoding='utf-8') as handle:
        return parse(handle.read())
