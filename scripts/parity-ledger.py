#!/usr/bin/env python3
"""Writes Docs/PARITY.md, the parity ledger, from a real test run; or checks that it is still true.

    python3 scripts/parity-ledger.py                          # writes Docs/PARITY.md (reads no test run)
    python3 scripts/parity-ledger.py --check                  # writes nothing; fails when the ledger is stale
    python3 scripts/parity-ledger.py --check --log TESTLOG [--results OUT.md]
                                      # also: every listed test ran and passed in TESTLOG; OUT.md gets the run's table

TESTLOG is the output of `./scripts/test.sh` (XCTest lines `Test Case 'Class.test_x' passed (0.01 seconds)`).

One row per parity ID of the spec (Docs/knowledge/parity/*.json, read by scripts/parity_spec.py; its planned IDs are
named in the header, not given rows): the behaviour in one line (the spec's first sentence), the port's file and symbol
(no line number, so moving code leaves the ledger true), the original's `SDWebImage/File.m:line` at tag 4.4.8 with
a link, and the tests that prove the ID. Test results are not in the ledger: --check --log checks them against a
run, and --results writes that run's table as an artefact. Where the lines come from:
- each ID's anchors in Docs/knowledge/parity/ID.json (facts, written by reading the code): "port", a file under
  Sources/ and a piece of text from the line that implements the behaviour (the first line containing it is cited),
  and "original", the original's symbols as ["File.m -a:, -b:", "Other.h name"] ([] for what 4.4.8 does not have;
  then "original5": ["Core/File.m -a:"] cites SDWebImage 5.21.5's lines for it, from
  Docs/knowledge/original-lines-5.21.5.tsv);
- Docs/knowledge/original-lines.tsv (scripts/original-lines.py): each symbol's line in 4.4.8; a header's method is
  cited in its .m when the .m has it, as Docs/walkthrough/src/resolve.py does;
- Tests/Behavior, Tests/Tooling, Tests/Interview and Tests/Museum: a test proves an ID when its name carries the ID without the dash
  (`test_CACHE09_…`) or when a `/// Parity: CACHE-09, MGR-04 — …` line in the doc comment right above its
  `func test…` lists it (the IDs before the dash or parenthesis, separated by commas);
- the log (--check --log only): each test's result.
The ledger then lists the deliberate differences from 4.4.8: the table of Docs/knowledge/differences/*.json (which
chapter 08 of the walkthrough shows where its template says <!-- DIFFERENCES -->), and the deadlocks and the sections
of chapter 08 (Docs/walkthrough/src/08-linux-differences.md.in), so they stay in step.

--check reads the IDs from the committed Docs/PARITY.md and fails when the spec has a built ID the ledger lacks, and one line per problem, when an
anchor or an original symbol no longer resolves, when a row's port or original line is not what the anchors give
now, when the tests that prove an ID in the sources are not the ledger's, when a test the ledger lists did not pass
in the log (a skipped test is tolerated while its ID has another that passed), when an ID has no passed test, when
the differences section is not what the data and chapter 08 give now, or when the log has no test results at all.
Standard library only.
"""
import argparse
import os
import re
import sys

import citations  # the walkthrough's marker syntax (resolve.py uses it too)
import knowledge
import parity_spec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEDGER = os.path.join('Docs', 'PARITY.md')
SPEC = parity_spec.SPEC
CHAPTER_08 = os.path.join('Docs', 'walkthrough', 'src', '08-linux-differences.md.in')
CHAPTER_08_OUT = 'walkthrough/08-linux-differences.md'  # relative to Docs/, for links
TEST_DIRS = [os.path.join('Tests', d) for d in ('Behavior', 'Tooling', 'Interview', 'Museum')]
ID_PATTERN = parity_spec.ID_PATTERN
GROUP_ORDER = ['FAQ', 'CACHE', 'DL', 'OP', 'MGR', 'VIEW', 'COD', 'INT', 'REL', 'V5', 'MUS']
DIFFERENCES_HEADING = '## Deliberate differences from 4.4.8'


class Problems(list):
    def add(self, text):
        self.append(text)


def read(path):
    with open(os.path.join(ROOT, path), encoding='utf-8') as handle:
        return handle.read()


def id_sort_key(parity_id):
    group, number = parity_id.rsplit('-', 1)
    rank = GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER)
    return rank, group, int(number)


# ---------------------------------------------------------------------------------------------- the spec

def split_code(text):
    """Pieces of `text` as (is_code, piece), code spans being the backquoted parts."""
    pieces, position = [], 0
    for match in re.finditer(r'`[^`]*`', text):
        if match.start() > position:
            pieces.append((False, text[position:match.start()]))
        pieces.append((True, match.group(0)))
        position = match.end()
    if position < len(text):
        pieces.append((False, text[position:]))
    return pieces


def first_sentence(text):
    """Up to the first full stop that ends a sentence (outside code spans), without the stop."""
    offset = 0
    for is_code, piece in split_code(text):
        if not is_code:
            match = re.search(r'\.(?=\s+[A-Z(`*"]|\s*$)', piece)
            if match and not re.search(r'\b(e\.g|i\.e|vs)$', piece[:match.start()]):
                return text[:offset + match.start()].strip()
        offset += len(piece)
    return text.strip()


def markdown_safe(text):
    """One table cell: `|` escaped everywhere, `*`, `_`, `<` and `>` escaped outside code spans."""
    out = []
    for is_code, piece in split_code(text):
        if is_code:
            out.append(piece.replace('|', '\\|'))
        else:
            piece = piece.replace('\\', '\\\\').replace('|', '\\|').replace('*', '\\*').replace('_', '\\_')
            out.append(piece.replace('<', '&lt;').replace('>', '&gt;'))
    return ''.join(out)


def one_line(text):
    return markdown_safe(first_sentence(' '.join(text.split())))


# ---------------------------------------------------------------------------------------------- anchors

def load_anchors(spec):
    """ID → (port_file, port_anchor, original, original5) for each built ID that has a port anchor, in spec order."""
    anchors = {}
    for parity_id in spec.ids:
        item = spec.items[parity_id]
        if parity_id in spec.planned or 'port' not in item:
            continue
        anchors[parity_id] = (item['port']['file'], item['port']['anchor'], item.get('original', []),
                              item.get('original5', []))
    return anchors


def anchor_file(parity_id):
    return os.path.join(SPEC, parity_id + '.json')


def resolve_port(parity_id, port_file, anchor, problems):
    """(path, symbol) of the first line of port_file that contains anchor; None (and a problem) when gone."""
    if not port_file.startswith('Sources/'):
        problems.add(f'{parity_id}: port_file {port_file} is not under Sources/')
    found = citations.port_location(ROOT, port_file, anchor, lambda message: problems.add(f'{parity_id}: {message}'))
    return (port_file, found[1]) if found is not None else None


def resolve_original(parity_id, original, original5, tables, problems):
    """[(symbol, 'SDWebImage/File.m:line', tag)] for the 4.4.8 references ["File.m -a:, -b:", "Other.h name"]; for an
    ID 4.4.8 does not have (no 4.4.8 reference), its 5.21.5 references ["Core/File.m -a:"], or [] when it has none."""
    tag, references = ('4.4.8', original) if original else ('5.21.5', original5 or [])
    table = tables[tag]
    cited = []
    for group in references:
        words = group.strip().split(None, 1)
        if len(words) != 2:
            problems.add(f'{parity_id}: original {group.strip()!r} is not `File.m symbol[, symbol]`')
            continue
        file, symbols = words
        for symbol in (s.strip() for s in symbols.split(',')):
            found = citations.find_original(table, file, symbol)
            if found is None:
                problems.add(f'{parity_id}: {file} {symbol}: not in the table of tag {tag} (not in {tag}?)')
            else:
                cited.append((symbol, f'SDWebImage/{found[0]}:{found[1]}', tag))
    return cited


# ---------------------------------------------------------------------------------------------- tests

FUNC = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*((?:\w+\s+)*)func\s+(test\w*)\s*\(\s*\)')
TYPE = re.compile(r'^(?:@\w+\s+)*(?:(?:public|internal|open|final)\s+)*(?:class|extension)\s+(\w+)')


def test_proofs(known_ids):
    """ID → set of `Class.test_name` proving it; and notes about Parity lines listing what is not an ID."""
    compact = {parity_id.replace('-', ''): parity_id for parity_id in known_ids}
    proofs, notes = {parity_id: set() for parity_id in known_ids}, []
    for directory in TEST_DIRS:
        for folder, _, files in sorted(os.walk(os.path.join(ROOT, directory))):
            for name in sorted(files):
                if not name.endswith('.swift'):
                    continue
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, ROOT)
                with open(path, encoding='utf-8') as handle:
                    lines = handle.read().split('\n')
                owner = None
                for index, line in enumerate(lines):
                    declared = TYPE.match(line)
                    if declared:
                        owner = declared.group(1)
                    function = FUNC.match(line)
                    if not function or re.search(r'\b(private|fileprivate|static|class)\b', function.group(1)):
                        continue
                    test = function.group(2)
                    full = f'{owner}.{test}'
                    ids = {compact[token] for token in test.split('_') if token in compact}
                    listed, list_notes = parity_lines_above(lines, index)
                    for item in listed:
                        if item in proofs:
                            ids.add(item)
                        else:
                            notes.append(f'{relative}:{index + 1} {full}: Parity lists {item!r}, not a known ID')
                    notes.extend(f'{relative}:{index + 1} {full}: {note}' for note in list_notes)
                    for parity_id in ids:
                        proofs[parity_id].add(full)
    return proofs, notes


def parity_lines_above(lines, index):
    """The IDs listed by `/// Parity:` lines of the doc comment (and attributes) right above lines[index]."""
    block, cursor = [], index - 1
    while cursor >= 0:
        stripped = lines[cursor].strip()
        if stripped.startswith('///'):
            block.insert(0, stripped[3:].strip())
        elif not stripped.startswith('@'):
            break
        cursor -= 1
    ids, notes = [], []
    for position, text in enumerate(block):
        if not text.startswith('Parity:'):
            continue
        listing = text[len('Parity:'):]
        follow = position + 1
        while listing.rstrip().endswith(',') and follow < len(block):  # a list that goes on to the next line
            listing += ' ' + block[follow]
            follow += 1
        listing = re.split(r'\s[—–(]|\s-\s|\s\(', ' ' + listing.strip() + ' ', maxsplit=1)[0]
        for item in (piece.strip() for piece in listing.split(',')):
            if ID_PATTERN.fullmatch(item):
                ids.append(item)
            elif item:
                notes.append(f'Parity lists {item!r}, which is not one ID (not counted)')
    return ids, notes


# ---------------------------------------------------------------------------------------------- the log

LOG_CASE = re.compile(r"Test Case '(?:-\[)?([\w.]+?)[. ](\w+)\]?' (passed|failed|skipped)")


def read_log(path):
    """`Class.test` → passed / failed / skipped (failed wins over a later pass); and the total line."""
    with open(path, encoding='utf-8', errors='replace') as handle:
        text = handle.read()
    results = {}
    for owner, test, status in LOG_CASE.findall(text):
        owner = owner.split('.')[-1]  # `-[Module.Class test]` on Darwin
        key = f'{owner}.{test}'
        if results.get(key) != 'failed':
            results[key] = status
    totals = re.findall(r'Executed (\d+) tests?, with [^\n]*', text)
    summary = None
    if totals:
        candidates = [m.group(0).strip() for m in re.finditer(r'Executed (\d+) tests?, with [^\n]*', text)]
        summary = max(candidates, key=lambda line: int(re.match(r'Executed (\d+)', line).group(1)))
    started = re.search(r"Test Suite 'All tests' started at ([0-9-]+ [0-9:.]+)", text)
    return results, summary, started.group(1) if started else None


def verdict(tests, results):
    """(cell text, passed count, problems list) for an ID's tests."""
    passed = [t for t in tests if results.get(t) == 'passed']
    skipped = [t for t in tests if results.get(t) == 'skipped']
    failed = [t for t in tests if results.get(t) == 'failed']
    missing = [t for t in tests if t not in results]
    if not tests:
        return '**no test**', 0
    if failed or missing or not passed:
        parts = []
        if failed:
            parts.append(f'{len(failed)} failed')
        if missing:
            parts.append(f'{len(missing)} not run')
        if not passed:
            parts.append('none passed')
        return '**FAIL** (' + ', '.join(parts) + f'; {len(passed)} of {len(tests)} passed)', len(passed)
    cell = f'pass ({len(passed)} of {len(tests)}'
    if skipped:
        cell += f'; {len(skipped)} skipped'
    return cell + ')', len(passed)


# ---------------------------------------------------------------------------------------------- chapter 08

def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r'[^\w\- ]', '', heading.strip().lower())
    return text.replace(' ', '-')


def sections(markdown):
    """[(heading, body lines)] of the `## ` sections."""
    found, current = [], None
    for line in markdown.split('\n'):
        if line.startswith('## '):
            current = (line[3:].strip(), [])
            found.append(current)
        elif current:
            current[1].append(line)
    return found


def bullets(body):
    """Top-level `- ` items of a section, each joined to one line."""
    items = []
    for line in body:
        if line.startswith('- '):
            items.append(line[2:].strip())
        elif items and line.startswith('  ') and line.strip():
            items[-1] += ' ' + line.strip()
    return items


def differences_section(tables, data, problems):
    """The ledger's second section: chapter 08's template with its table of deliberate differences filled in from the
    data (`data`, scripts/knowledge.py), as the walkthrough shows it."""
    template = read(CHAPTER_08)
    if knowledge.DIFFERENCES_MARKER + '\n' not in template:
        problems.add(f'{CHAPTER_08}: no line {knowledge.DIFFERENCES_MARKER} (where the table of deliberate differences goes)')
    chapter = citations.resolve_markers(knowledge.fill_differences(template, data), ROOT, tables,
                                        lambda message: problems.add(f'{CHAPTER_08}: {message}'))
    found = sections(chapter)
    by_heading = {heading: body for heading, body in found}
    link = lambda heading: f'{CHAPTER_08_OUT}#{slug(heading)}'
    out = [DIFFERENCES_HEADING, '',
           f'Copied by the generator from chapter 08 of the walkthrough (`{CHAPTER_08}`; the table\'s rows from '
           f'`{knowledge.KNOWLEDGE}/differences/`); edit those, not this.',
           '']

    deliberate = next((h for h in by_heading if h.startswith('Deliberate differences')), None)
    deadlock = next((h for h in by_heading if 'deadlock' in h.lower()), None)
    if deliberate is None:
        problems.add(f'{CHAPTER_08}: no "## Deliberate differences …" section')
    else:
        body = by_heading[deliberate]
        lead = ' '.join(line.strip() for line in body if line.strip() and not line.startswith('|'))
        rows = [line for line in body if line.startswith('|')]
        out += [f'### [{deliberate}]({link(deliberate)})', '']
        if lead:
            out += [lead, '']
        if len(rows) < 3:
            problems.add(f'{CHAPTER_08}: "{deliberate}" has no table rows')
        out += rows + ['']
    if deadlock is None:
        problems.add(f'{CHAPTER_08}: no section about a deadlock of the original')
    else:
        items = bullets(by_heading[deadlock])
        if not items:
            problems.add(f'{CHAPTER_08}: "{deadlock}" has no bullet points')
        out += [f'### [{deadlock}]({link(deadlock)})', ''] + [f'- {item}' for item in items] + ['']

    forced = [h for h, _ in found if h not in (deliberate, deadlock) and not h.lower().startswith('where 5.x')]
    out += ['### What Linux forces (each section of chapter 08 gives what 4.4.8 does, what the port does and why)',
            '']
    out += [f'- [{heading}]({link(heading)})' for heading in forced]
    return '\n'.join(out) + '\n'


# ---------------------------------------------------------------------------------------------- the ledger

def original_link(symbol, where, tag='4.4.8'):
    path, line = where.rsplit(':', 1)
    return citations.original_link(tag, symbol, path[len('SDWebImage/'):], line)


def port_link(where):
    return citations.port_reference(where[0], where[1], '../')


def generate(arguments):
    problems = Problems()
    data = knowledge.load(ROOT, problems.add)
    spec = parity_spec.from_knowledge(data)
    behaviours = {i: text for i, text in spec.behaviours.items() if i not in spec.planned}
    ids = sorted(behaviours, key=id_sort_key)
    anchors = load_anchors(spec)
    for parity_id in ids:
        if parity_id not in anchors:
            problems.add(f'{parity_id}: no "port" anchor in {anchor_file(parity_id)}')
    tables = citations.read_original_tables(ROOT)
    proofs, notes = test_proofs(ids)

    rows, unproven, total_tests = [], [], set()
    for parity_id in ids:
        port_file, anchor, original, original5 = anchors.get(parity_id, ('', '', None, None))
        port = resolve_port(parity_id, port_file, anchor, problems) if port_file else None
        cited = resolve_original(parity_id, original, original5, tables, problems) if port_file else []
        tests = sorted(proofs[parity_id])
        total_tests.update(tests)
        if not tests:
            unproven.append(parity_id)
        links = '<br>'.join(original_link(symbol, where, tag) for symbol, where, tag in cited)
        original = ('?' if original is None
                    else links or '?' if original
                    else f'5.x only (not in 4.4.8); at 5.21.5:<br>{links}' if original5
                    else '5.x only (not in 4.4.8)')
        rows.append('| ' + ' | '.join([
            parity_id, one_line(behaviours[parity_id]), port_link(port) if port else '?', original,
            '<br>'.join(f'`{test}`' for test in tests) or '—']) + ' |')

    header = [
        '<!-- Generated by scripts/docs.sh (scripts/parity-ledger.py) from Docs/knowledge/parity/*.json, '
        'Docs/knowledge/differences/*.json, the tests\' sources and chapter 08: edit those, not this file. -->',
        '# Parity ledger',
        '',
        'Generated by `python3 scripts/parity-ledger.py` from the spec (`Docs/knowledge/parity/*.json`, shown as',
        '`Docs/spec/PARITY.md`), its anchors and the tests\' sources; do not edit by hand. `.ci/run` runs',
        '`scripts/parity-ledger.py --check --log` on its own test run and fails when an ID, an anchor or a test below',
        'changed without regenerating, or a listed test did not pass. The port\'s file and symbol come from each ID\'s',
        '`port` anchor, the original\'s line from `Docs/knowledge/original-lines.tsv` (SDWebImage at tag 4.4.8; for',
        '5.x-only IDs `Docs/knowledge/original-lines-5.21.5.tsv`, at tag 5.21.5); a test proves an ID when its name',
        'carries the ID',
        '(`test_CACHE09_…`) or its doc comment has `/// Parity: CACHE-09`.',
        '',
        f'- {len(ids)} IDs, {len(ids) - len(unproven)} with at least one test that proves them'
        + (f'; no test yet: {", ".join(unproven)}' if unproven else ''),
        f'- {len(total_tests)} distinct tests prove IDs',
        f'- Planned in the spec, not built yet: {", ".join(spec.planned)}' if spec.planned else '- Nothing planned',
        '',
        '| ID | behaviour | port | original (4.4.8) | tests |',
        '|---|---|---|---|---|',
    ]
    text = '\n'.join(header + rows) + '\n\n' + differences_section(tables, data, problems)
    for note in notes:
        print(f'parity-ledger: note: {note}', file=sys.stderr)
    if problems:
        print('\n'.join(f'parity-ledger: {p}' for p in problems), file=sys.stderr)
        return 1
    with open(os.path.join(ROOT, LEDGER), 'w', encoding='utf-8') as handle:
        handle.write(text)
    print(f'parity-ledger: wrote {LEDGER}: {len(rows)} rows, {len(total_tests)} tests'
          + (f'; NO TEST for: {", ".join(unproven)}' if unproven else '; every ID has a test'))
    return 1 if unproven else 0


# ---------------------------------------------------------------------------------------------- --check

def parse_ledger(text):
    """ID → {'port': 'path:line', 'original': [...], 'tests': set()} from the committed ledger's table."""
    rows = {}
    for line in text.split('\n'):
        match = re.match(r'^\| (' + ID_PATTERN.pattern + r') \| ', line)
        if not match:
            continue
        cells = re.split(r'(?<!\\)\|', line.strip().strip('|'))
        if len(cells) != 5:
            rows[match.group(1)] = None
            continue
        port = re.search(r'\]\(\.\./([^)]+)\)', cells[2])
        symbol = re.search(r' · `([^`]+)`', cells[2])
        rows[match.group(1)] = {
            'port': (port.group(1), symbol.group(1) if symbol else None) if port else None,
            'original': re.findall(r'`(SDWebImage/[^`]+:\d+)`', cells[3]),
            'is_5x': '5.x only' in cells[3],
            'tests': set(re.findall(r'`([\w]+\.[\w]+)`', cells[4])),
        }
    return rows


def check(arguments):
    problems = Problems()
    try:
        committed = read(LEDGER)
    except OSError:
        print(f'parity-ledger: no {LEDGER}: generate it with --log', file=sys.stderr)
        return 1
    ledger = parse_ledger(committed)
    if not ledger:
        problems.add(f'{LEDGER}: no ID rows')
    data = knowledge.load(ROOT, problems.add)
    spec = parity_spec.from_knowledge(data)
    anchors = load_anchors(spec)
    for parity_id in spec.ids:
        if parity_id not in spec.planned and parity_id not in ledger:
            problems.add(f'{parity_id}: in {SPEC} but not in {LEDGER} (regenerate)')
    tables = citations.read_original_tables(ROOT)
    proofs, _ = test_proofs(list(ledger))
    results = read_log(arguments.log)[0] if arguments.log else {}
    if arguments.log and not results:
        problems.add(f'{arguments.log}: no test results (no `Test Case \'…\' passed` lines): did the tests run?')

    for parity_id in sorted(ledger, key=id_sort_key):
        row = ledger[parity_id]
        if row is None:
            problems.add(f'{parity_id}: the ledger row does not have 5 cells')
            continue
        if parity_id not in anchors:
            problems.add(f'{parity_id}: ' + (f'not a built ID of {SPEC}' if parity_id not in spec.ids or parity_id
                                             in spec.planned else f'no "port" anchor in {anchor_file(parity_id)}'))
            continue
        port_file, anchor, original, original5 = anchors[parity_id]
        port = resolve_port(parity_id, port_file, anchor, problems)
        if port and port != row['port']:
            problems.add(f'{parity_id}: the ledger cites {row["port"]}, the anchor is now in {port} (regenerate)')
        before = len(problems)
        cited = [where for _, where, _ in resolve_original(parity_id, original, original5, tables, problems)]
        resolved = len(problems) == before  # else resolve_original named the symbol that is gone
        if (not original) != row['is_5x'] or resolved and (original or original5) and cited != row['original']:
            problems.add(f'{parity_id}: the ledger cites {", ".join(row["original"]) or "5.x"} for the original, '
                         f'the anchors give {", ".join(cited) or "5.x"} (regenerate)')
        now = proofs.get(parity_id, set())
        for test in sorted(now - row['tests']):
            problems.add(f'{parity_id}: {test} proves it in the sources but is not in the ledger (regenerate)')
        for test in sorted(row['tests'] - now):
            problems.add(f'{parity_id}: the ledger lists {test}, which no longer proves it in the sources (regenerate)')
        if results:
            for test in sorted(row['tests']):
                status = results.get(test)
                if status is None:
                    problems.add(f'{parity_id}: {test} did not run (not in {arguments.log})')
                elif status == 'failed':
                    problems.add(f'{parity_id}: {test} failed')
            if not any(results.get(test) == 'passed' for test in row['tests']):
                problems.add(f'{parity_id}: no test that proves it passed')

    expected = differences_section(tables, data, problems)
    start = committed.find(DIFFERENCES_HEADING)
    if start < 0 or committed[start:] != expected:
        problems.add(f'{LEDGER}: the deliberate differences are not what the data and {CHAPTER_08} give now (regenerate)')

    if problems:
        print('\n'.join(f'parity-ledger: {p}' for p in problems), file=sys.stderr)
        return 1
    tests = set().union(*(row['tests'] for row in ledger.values() if row))
    if not arguments.log:
        print(f'parity-ledger: {LEDGER} is current: {len(ledger)} IDs, {len(tests)} tests (no run given)')
        return 0
    skipped = sorted(t for t in tests if results.get(t) == 'skipped')
    print(f'parity-ledger: {LEDGER} is current: {len(ledger)} IDs, {len(tests)} tests; in {arguments.log} '
          f'{len(tests) - len(skipped)} passed' + (f', {len(skipped)} skipped ({", ".join(skipped)})' if skipped else ''))
    if arguments.results:
        write_results(arguments.results, ledger, results, arguments.log)
    return 0


def write_results(path, ledger, results, log):
    """The run's table, an artefact for CI: each ID with how its tests did in `log`."""
    _, summary, started = read_log(log)
    lines = ['# Parity results of one run', '',
             f'- Test run: `{summary or "no summary line"}`' + (f' (started {started})' if started else ''), '',
             '| ID | tests | result |', '|---|---|---|']
    for parity_id in sorted(ledger, key=id_sort_key):
        tests = sorted(ledger[parity_id]['tests'])
        cell, _ = verdict(tests, results)
        lines.append(f'| {parity_id} | {len(tests)} | {cell} |')
    with open(path, 'w', encoding='utf-8') as handle:
        handle.write('\n'.join(lines) + '\n')
    print(f'parity-ledger: wrote {path}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--log', help='the output of ./scripts/test.sh (--check: every listed test must have passed)')
    parser.add_argument('--results', help='with --check --log: write the run\'s table of results to this file')
    parser.add_argument('--check', action='store_true', help='write nothing; fail when the ledger is stale')
    arguments = parser.parse_args()
    if arguments.check:
        return check(arguments)
    return generate(arguments)


if __name__ == '__main__':
    sys.exit(main())
