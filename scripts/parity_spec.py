"""Reads the parity spec from its data, Docs/knowledge/parity/*.json in the order of Docs/knowledge/index.json: its
IDs in order, each ID's text, which IDs are planned, and each built ID's anchors (scripts/knowledge.py loads them).

Docs/spec/PARITY.md is a view generated from the same data (scripts/knowledge.py). Used by scripts/parity-ledger.py and
scripts/parity-coverage. Standard library only.
"""
import os
from dataclasses import dataclass, field

import knowledge

SPEC = os.path.join(knowledge.KNOWLEDGE, 'parity')
ID_PATTERN = knowledge.ID_PATTERN


@dataclass
class Spec:
    ids: list = field(default_factory=list)
    behaviours: dict = field(default_factory=dict)
    planned: list = field(default_factory=list)
    # ID → its item (the JSON object: port, original, original5 …).
    items: dict = field(default_factory=dict)


def from_knowledge(data):
    spec = Spec()
    for item in data.parity:
        spec.ids.append(item['id'])
        spec.behaviours[item['id']] = item['spec']
        spec.items[item['id']] = item
        if item.get('planned'):
            spec.planned.append(item['id'])
    return spec


def read(root, problem=None):
    """The spec of the package at `root`; a malformed item is passed to `problem` (default: ignored)."""
    return from_knowledge(knowledge.load(root, problem))
