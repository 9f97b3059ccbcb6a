#!/usr/bin/env python3
"""The project's facts as data: Docs/knowledge/, one JSON file per item, read here and by `sdport` (a SwiftPM
resource of the SDPortKnowledge target).

    python3 scripts/knowledge.py           # refreshes each port anchor's stored symbol, writes Docs/spec/PARITY.md
    python3 scripts/knowledge.py --check   # writes nothing; fails naming what is wrong or stale

What lives there (the folders' items are listed, in their order, by Docs/knowledge/index.json):
- faq/FAQ-NN.json: an interview card — question, oneLine, answer, trap, versions, topic, deciding (the 4.4.8 lines
  that decide it, "File.m symbol #L12-14"), tests (`Class.test_method`) and its break-it drill. Its citations of the
  port and the original are its parity ID's (parity/FAQ-NN.json). The live probes stay in Swift, keyed by number.
- myths/<id>.json: a belief of the older articles, against 4.4.8 (belief, source, trueIn, truth, original, test, then).
- differences/<slug>.json: a row of chapter 08's table of deliberate differences (original = what 4.4.8 does, port,
  why, tests), Markdown with citation markers; Docs/walkthrough/src/resolve.py puts the table where chapter 08 says
  <!-- DIFFERENCES -->, and scripts/parity-ledger.py copies it into Docs/PARITY.md.
- parity/<ID>.json: a spec ID — spec (the behaviour), planned (true while not built), port (file, anchor: text on the
  line that implements it, symbol: the Swift symbol holding that line), original (4.4.8 references,
  "File.m -a:, -b:"), original5 (5.21.5 references, "Core/File.m -a:"; for IDs 4.4.8 does not have, original is []).
  A built ID without a port anchor is scripts/parity-ledger.py's problem, not a malformed item.
  index.json's parity.sections give the spec's headings and order; Docs/spec/PARITY.md is generated from them.
- original-lines.tsv, original-lines-5.21.5.tsv: each symbol's line in the original (scripts/original-lines.py).

--check fails when an item is malformed or not listed (or listed and missing), when a stored port symbol is not what
the anchor resolves to now (scripts/citations.py's port_location), or when Docs/spec/PARITY.md is stale.
Standard library only.
"""
import json
import os
import re
import sys
import textwrap

import citations

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KNOWLEDGE = os.path.join('Docs', 'knowledge')
SPEC_VIEW = os.path.join('Docs', 'spec', 'PARITY.md')
DIFFERENCES_MARKER = '<!-- DIFFERENCES -->'
ID_PATTERN = re.compile(r'[A-Z][A-Z0-9]*-\d+')
FOLDERS = ('faq', 'myths', 'differences', 'parity')
KEY = {'faq': 'id', 'myths': 'id', 'differences': 'slug', 'parity': 'id'}
# Required fields and their types; other known fields are optional. Unknown fields are an error (a typo).
REQUIRED = {
    'faq': {'id': str, 'question': str, 'answer': str, 'tests': list},
    'myths': {'id': str, 'topic': str, 'belief': str, 'source': str, 'trueIn': str, 'truth': str, 'original': list,
              'test': str},
    'differences': {'slug': str, 'original': str, 'port': str, 'why': str, 'tests': list},
    'parity': {'id': str, 'spec': str},
}
OPTIONAL = {
    'faq': {'oneLine': str, 'trap': str, 'versions': str, 'topic': str, 'deciding': list, 'drill': dict},
    'myths': {'then': str},
    'differences': {},
    'parity': {'planned': bool, 'port': dict, 'original': list, 'original5': list},
}
DRILL = {'rule': str, 'kind': str, 'file': str, 'find': str, 'replace': str, 'tests': str, 'predict': str,
         'expect': str}
TOPICS = ('cache', 'downloader', 'manager', 'views', 'coders')


class Knowledge:
    """Every item, in index order: faq, myths, differences, parity (lists of dicts); sections (spec headings)."""

    def __init__(self):
        self.index = {}
        self.faq, self.myths, self.differences, self.parity = [], [], [], []
        self.sections, self.title, self.intro = [], '', []
        self.files = {}  # id(item) → path relative to the root

    def parity_item(self, parity_id):
        return next((item for item in self.parity if item['id'] == parity_id), None)


def read_json(root, relative, problem):
    try:
        with open(os.path.join(root, relative), encoding='utf-8') as handle:
            return json.load(handle)
    except OSError:
        problem(f'{relative}: no such file')
    except ValueError as error:
        problem(f'{relative}: not JSON ({error})')
    return None


def write_json(root, relative, value):
    with open(os.path.join(root, relative), 'w', encoding='utf-8') as handle:
        handle.write(json.dumps(value, ensure_ascii=False, indent=2) + '\n')


def check_fields(relative, item, folder, problem):
    if not isinstance(item, dict):
        problem(f'{relative}: not a JSON object')
        return False
    fine = True
    for name, kind in REQUIRED[folder].items():
        if not isinstance(item.get(name), kind) or item.get(name) in ('', []):
            problem(f'{relative}: "{name}" must be a non-empty {kind.__name__}')
            fine = False
    for name, value in item.items():
        kind = REQUIRED[folder].get(name) or OPTIONAL[folder].get(name)
        if kind is None:
            problem(f'{relative}: unknown field "{name}"')
        elif not isinstance(value, kind):
            problem(f'{relative}: "{name}" must be a {kind.__name__}')
            fine = False
        elif kind is list and not all(isinstance(entry, str) and entry.strip() for entry in value):
            problem(f'{relative}: "{name}" must list non-empty strings')
            fine = False
    return fine


def check_item(relative, item, folder, problem):
    """The rules beyond field types."""
    if folder == 'faq':
        if not re.fullmatch(r'FAQ-\d\d', item['id']):
            problem(f'{relative}: id {item["id"]} is not FAQ-NN')
        if item.get('topic') is not None and item['topic'] not in TOPICS:
            problem(f'{relative}: topic {item["topic"]} is not one of {", ".join(TOPICS)}')
        drill = item.get('drill')
        if drill is not None:
            for name, kind in DRILL.items():
                if name in ('kind', 'predict', 'expect') and name not in drill:
                    continue
                if not isinstance(drill.get(name), kind) or not drill.get(name):
                    problem(f'{relative}: drill "{name}" must be a non-empty {kind.__name__}')
            for name in drill:
                if name not in DRILL:
                    problem(f'{relative}: drill: unknown field "{name}"')
    if folder == 'myths' and item['topic'] not in TOPICS:
        problem(f'{relative}: topic {item["topic"]} is not one of {", ".join(TOPICS)}')
    if folder == 'parity':
        if not ID_PATTERN.fullmatch(item['id']):
            problem(f'{relative}: id {item["id"]} is not a parity ID (GROUP-NN)')
        port = item.get('port')
        if port is not None:
            for name in ('file', 'anchor', 'symbol'):
                if not isinstance(port.get(name), str) or (name != 'symbol' and not port.get(name)):
                    problem(f'{relative}: port "{name}" must be a string' + ('' if name == 'symbol' else ', not empty'))
            for name in port:
                if name not in ('file', 'anchor', 'symbol'):
                    problem(f'{relative}: port: unknown field "{name}"')
            if isinstance(port.get('file'), str) and not port['file'].startswith('Sources/'):
                problem(f'{relative}: port file {port["file"]} is not under Sources/')


def load(root=ROOT, problem=None):
    """The knowledge under `root`; every problem found is passed to `problem` (default: ignored)."""
    problem = problem or (lambda message: None)
    knowledge = Knowledge()
    index_path = os.path.join(KNOWLEDGE, 'index.json')
    index = read_json(root, index_path, problem) or {}
    knowledge.index = index
    parity_index = index.get('parity') or {}
    knowledge.title = parity_index.get('title', '')
    knowledge.intro = parity_index.get('intro', [])
    knowledge.sections = parity_index.get('sections', [])
    listed = {'faq': index.get('faq', []), 'myths': index.get('myths', []),
              'differences': index.get('differences', []),
              'parity': [i for section in knowledge.sections for i in section.get('ids', [])]}
    for folder in FOLDERS:
        names = listed[folder]
        for name in sorted(set(n for n in names if names.count(n) > 1)):
            problem(f'{index_path}: {folder} lists {name} twice')
        directory = os.path.join(root, KNOWLEDGE, folder)
        present = sorted(n[:-len('.json')] for n in os.listdir(directory) if n.endswith('.json')) \
            if os.path.isdir(directory) else []
        for name in present:
            if name not in names:
                problem(f'{KNOWLEDGE}/{folder}/{name}.json: not listed in {index_path} ("{folder}")')
        for name in names:
            relative = os.path.join(KNOWLEDGE, folder, name + '.json')
            if name not in present:
                problem(f'{index_path}: {folder} lists {name}, but there is no {relative}')
                continue
            item = read_json(root, relative, problem)
            if item is None or not check_fields(relative, item, folder, problem):
                continue
            if item[KEY[folder]] != name:
                problem(f'{relative}: its {KEY[folder]} is {item[KEY[folder]]}, not the file\'s name')
            check_item(relative, item, folder, problem)
            knowledge.files[id(item)] = relative
            getattr(knowledge, folder).append(item)
    for card in knowledge.faq:
        item = knowledge.parity_item(card['id'])
        if item is None or item.get('planned'):
            problem(f'{KNOWLEDGE}/faq/{card["id"]}.json: no built parity ID {card["id"]} (its citations live there)')
    return knowledge


# ---------------------------------------------------------------------------------------------- port symbols

def port_symbols(knowledge, root=ROOT, problem=None):
    """[(item, stored symbol, resolved symbol)] for each parity item with a port anchor; a gone file or text is a
    problem (resolved is then None)."""
    problem = problem or (lambda message: None)
    found = []
    for item in knowledge.parity:
        port = item.get('port')
        if not port:
            continue
        where = citations.port_location(root, port['file'], port['anchor'],
                                        lambda message, i=item: problem(f'{i["id"]}: {message}'))
        found.append((item, port.get('symbol', ''), (where[1] or '') if where else None))
    return found


# ---------------------------------------------------------------------------------------------- views

def spec_markdown(knowledge):
    """Docs/spec/PARITY.md: the title, the introduction, then each section's heading and its IDs' text."""
    wrap = lambda text, first, rest: textwrap.fill(text, width=118, initial_indent=first, subsequent_indent=rest,
                                                    break_long_words=False, break_on_hyphens=False)
    out = ['<!-- Generated by scripts/docs.sh (scripts/knowledge.py) from Docs/knowledge/parity/*.json and '
           'Docs/knowledge/index.json: edit those, not this file. -->', f'# {knowledge.title}', '']
    for paragraph in knowledge.intro:
        out += [wrap(paragraph, '', ''), '']
    items = {item['id']: item for item in knowledge.parity}
    for section in knowledge.sections:
        out.append(f'## {section["heading"]}')
        for parity_id in section.get('ids', []):
            if parity_id in items:
                out.append(wrap(items[parity_id]['spec'], f'- {parity_id} ', '  '))
        out.append('')
    return '\n'.join(out).rstrip('\n') + '\n'


def differences_table(knowledge):
    """Chapter 08's table of deliberate differences, with its header, as Markdown (citation markers unresolved)."""
    def tests(item):
        return ', '.join(f'`{t}`' if re.fullmatch(r'[\w.]+', t) else t for t in item['tests'])
    rows = ['| 4.4.8 | the port | why | test |', '|---|---|---|---|']
    for item in knowledge.differences:
        rows.append(f'| {item["original"]} | {item["port"]} | {item["why"]} | {tests(item)} |')
    return '\n'.join(rows) + '\n'


def fill_differences(text, knowledge):
    """`text` with its <!-- DIFFERENCES --> line replaced by the table."""
    return text.replace(DIFFERENCES_MARKER + '\n', differences_table(knowledge))


# ---------------------------------------------------------------------------------------------- main

def main(arguments):
    check = '--check' in arguments
    problems = []
    knowledge = load(ROOT, problems.append)
    changed = []
    for item, stored, resolved in port_symbols(knowledge, ROOT, problems.append):
        if resolved is None or stored == resolved:
            continue
        relative = knowledge.files[id(item)]
        if check:
            problems.append(f'{relative}: port symbol is {stored!r}, the anchor is now in {resolved!r} '
                            f'(run scripts/docs.sh generate)')
        else:
            item['port']['symbol'] = resolved
            write_json(ROOT, relative, item)
            changed.append(f'{item["id"]}: {stored or "(none)"} → {resolved}')
    view = spec_markdown(knowledge)
    try:
        with open(os.path.join(ROOT, SPEC_VIEW), encoding='utf-8') as handle:
            committed = handle.read()
    except OSError:
        committed = None
    if check and committed != view:
        problems.append(f'{SPEC_VIEW}: out of date (run scripts/docs.sh generate)')
    if problems:
        print('\n'.join(f'knowledge: {p}' for p in problems), file=sys.stderr)
        return 1
    if not check and committed != view:
        os.makedirs(os.path.dirname(os.path.join(ROOT, SPEC_VIEW)), exist_ok=True)
        with open(os.path.join(ROOT, SPEC_VIEW), 'w', encoding='utf-8') as handle:
            handle.write(view)
    for line in changed:
        print(f'knowledge: port symbol {line}')
    counts = ', '.join(f'{len(getattr(knowledge, f))} {f}' for f in FOLDERS)
    print(f'knowledge: {counts}; ' + ('every stored symbol and Docs/spec/PARITY.md are current' if check
                                       else 'wrote Docs/spec/PARITY.md'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
