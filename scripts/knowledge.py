#!/usr/bin/env python3
"""The project's facts as data: Docs/knowledge/, one JSON file per item, read here and by `sdport` (a SwiftPM
resource of the SDPortKnowledge target).

    python3 scripts/knowledge.py           # refreshes each port anchor's stored symbol, writes Docs/spec/PARITY.md
    python3 scripts/knowledge.py --check   # writes nothing; fails naming what is wrong or stale
    python3 scripts/knowledge.py --verify-tokens GIT_DIR   # reads each follow-up's lines at its tag (git show), writes
                                                           # Docs/knowledge/verified-tokens.tsv

What lives there (the folders' items are listed, in their order, by Docs/knowledge/index.json):
- faq/FAQ-NN.json: an interview card — question, short (the 30-second answer, at most 70 words), followUps (at least
  three {question, answer, original: {tag, file, lines, token}}, the deciding line at the tag the question is about),
  oneLine, answer, trap, versions, topic, deciding (the 4.4.8 lines that decide it, "File.m symbol #L12-14"), tests
  (`Class.test_method`), its break-it drill, quiz ({right, wrong: three options built from the card's own traps}) and
  guardedNumbers ({number: "1/15,728,640" or "60 MB", phrase: a regular expression}: a doc comment under Sources/ that
  mentions the phrase may state no other number of that kind). Its citations of the
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
the anchor resolves to now (scripts/citations.py's port_location), or when Docs/spec/PARITY.md is stale; when two
quiz options of a card say the same thing, a wrong option is another card's, or the right option is the longest in
more than half of the cards; when a follow-up's citation is not in verified-tokens.tsv with its token (the record
--verify-tokens made from the original, so CI needs no checkout); and when a doc comment contradicts a guarded number.
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
    'faq': {'id': str, 'question': str, 'answer': str, 'tests': list, 'short': str, 'followUps': list, 'quiz': dict},
    'myths': {'id': str, 'topic': str, 'belief': str, 'source': str, 'trueIn': str, 'truth': str, 'original': list,
              'test': str},
    'differences': {'slug': str, 'original': str, 'port': str, 'why': str, 'tests': list},
    'parity': {'id': str, 'spec': str},
}
OPTIONAL = {
    'faq': {'oneLine': str, 'trap': str, 'versions': str, 'topic': str, 'deciding': list, 'drill': dict,
            'guardedNumbers': list},
    'myths': {'then': str},
    'differences': {},
    'parity': {'planned': bool, 'port': dict, 'original': list, 'original5': list},
}
DRILL = {'rule': str, 'kind': str, 'file': str, 'find': str, 'replace': str, 'tests': str, 'predict': str,
         'expect': str}
TOPICS = ('cache', 'downloader', 'manager', 'views', 'coders')
# Lists whose entries are objects, checked by check_item (every other list holds non-empty strings).
OBJECT_LISTS = {'followUps', 'guardedNumbers'}
SHORT_WORDS = 70   # a 30-second answer, said aloud
MIN_FOLLOW_UPS = 3
WRONG_OPTIONS = 3
ORIGINAL = ('tag', 'file', 'lines', 'token')
TAG_PATTERN = re.compile(r'\d+\.\d+\.\d+')
LINES_PATTERN = re.compile(r'(\d+)(?:-(\d+))?')
# The version a follow-up's question names: "5.x", "current 5.x", "4.0", "5.2.0", "4.0–4.4.1".
VERSION_PATTERN = re.compile(r'(current )?(\d+)\.(x|\d+)(?:\.(\d+))?(?:\s*(?:–|-|to)\s*(\d+)\.(\d+)(?:\.(\d+))?)?')
CURRENT_5X = '5.21.5'
TOKEN_RECORD = os.path.join(KNOWLEDGE, 'verified-tokens.tsv')


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
        elif kind is list and name not in OBJECT_LISTS \
                and not all(isinstance(entry, str) and entry.strip() for entry in value):
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
        check_interview(relative, item, problem)
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
    check_quiz_options(knowledge, problem)
    return knowledge


# ---------------------------------------------------------------------------------------------- interview cards

def words(text):
    """The words of `text`, lowercased, punctuation dropped ("image/*;q=0.8" → image, q, 0, 8)."""
    return re.findall(r'[a-z0-9]+', text.lower())


def same_claim(a, b):
    """Whether two quiz options say the same thing: equal once case and punctuation are dropped, or nearly the same
    words (word sets overlapping by 80 % or more of their union, or one holding 90 % or more of the other's)."""
    wa, wb = words(a), words(b)
    if wa == wb:
        return True
    sa, sb = set(wa), set(wb)
    if not sa or not sb:
        return False
    shared = len(sa & sb)
    return shared / len(sa | sb) >= 0.8 or shared / min(len(sa), len(sb)) >= 0.9


def version_key(text):
    return tuple(int(part) for part in text.split('.'))


def tag_fits(question, tag, answer=''):
    """Whether a follow-up citing `tag` cites the version its question speaks about. A question naming a version
    needs a tag of it: "current 5.x" is 5.21.5; "5.x" any 5 tag; "4.0" or "5.2.0" that release or a later one of the
    same major version (a rule since then, read where it still holds); "4.0–4.4.1" a tag in the range. A question
    naming none speaks about 4.4.8, the card's version, unless it asks when (then the answer names the version, as
    in "Since 4.4.2"). Returns None when it fits, else the reason."""
    named = list(VERSION_PATTERN.finditer(question))
    if not named:
        if tag == '4.4.8':
            return None
        named = list(VERSION_PATTERN.finditer(answer)) if re.match(r'(since )?when\b', question, re.IGNORECASE) else []
        if not named:
            return f'cites {tag} but its question names no version (4.4.8 is the card\'s)'
    tagged = version_key(tag)
    for match in named:
        current, major, minor, patch, end_major, end_minor, end_patch = match.groups()
        if current:
            if tag == CURRENT_5X:
                return None
            continue
        if minor == 'x':
            if tagged[0] == int(major):
                return None
            continue
        low = (int(major), int(minor), int(patch or 0))
        if end_major:
            high = (int(end_major), int(end_minor), int(end_patch) if end_patch else 10 ** 6)
            if low <= tagged <= high:
                return None
        elif tagged[0] == low[0] and tagged >= low:
            return None
    return f'cites {tag}, not a version its question names ({", ".join(m.group(0) for m in named)})'


def check_interview(relative, card, problem):
    """The 30-second answer, the follow-ups and the quiz options of one card."""
    short = card.get('short')
    if isinstance(short, str) and len(short.split()) > SHORT_WORDS:
        problem(f'{relative}: "short" has {len(short.split())} words, more than {SHORT_WORDS}')
    follow_ups = card.get('followUps')
    if isinstance(follow_ups, list):
        if len(follow_ups) < MIN_FOLLOW_UPS:
            problem(f'{relative}: {len(follow_ups)} follow-ups, fewer than {MIN_FOLLOW_UPS}')
        for number, follow_up in enumerate(follow_ups, 1):
            where = f'{relative}: follow-up {number}'
            if not isinstance(follow_up, dict):
                problem(f'{where}: not an object')
                continue
            for name in follow_up:
                if name not in ('question', 'answer', 'original'):
                    problem(f'{where}: unknown field "{name}"')
            for name in ('question', 'answer'):
                if not isinstance(follow_up.get(name), str) or not follow_up[name].strip():
                    problem(f'{where}: "{name}" must be a non-empty str')
            original = follow_up.get('original')
            if not isinstance(original, dict):
                problem(f'{where}: "original" must be an object {{tag, file, lines, token}}')
                continue
            for name in original:
                if name not in ORIGINAL:
                    problem(f'{where}: original: unknown field "{name}"')
            if not all(isinstance(original.get(name), str) and original[name].strip() for name in ORIGINAL):
                problem(f'{where}: original needs a non-empty tag, file, lines and token')
                continue
            if not TAG_PATTERN.fullmatch(original['tag']):
                problem(f'{where}: tag {original["tag"]} is not a release tag (4.4.8, 5.21.5, …)')
            elif isinstance(follow_up.get('question'), str):
                reason = tag_fits(follow_up['question'], original['tag'], follow_up.get('answer') or '')
                if reason:
                    problem(f'{where}: {reason}')
            if original['file'].startswith('/') or '..' in original['file'].split('/'):
                problem(f'{where}: file {original["file"]} is not a path inside the repository')
            lines = LINES_PATTERN.fullmatch(original['lines'])
            if not lines or int(lines.group(1)) < 1 or (lines.group(2) and int(lines.group(2)) < int(lines.group(1))):
                problem(f'{where}: lines {original["lines"]} is not "N" or "A-B" with A <= B')
            if '\n' in original['token'] or len(original['token']) > 60:
                problem(f'{where}: a token is a short text of one line')
    quiz = card.get('quiz')
    if isinstance(quiz, dict):
        for name in quiz:
            if name not in ('right', 'wrong'):
                problem(f'{relative}: quiz: unknown field "{name}"')
        wrong = quiz.get('wrong')
        if not isinstance(quiz.get('right'), str) or not quiz['right'].strip():
            problem(f'{relative}: quiz "right" must be a non-empty str')
        elif not isinstance(wrong, list) or len(wrong) != WRONG_OPTIONS \
                or not all(isinstance(text, str) and text.strip() for text in wrong):
            problem(f'{relative}: quiz "wrong" must list {WRONG_OPTIONS} non-empty strings')
        else:
            options = [quiz['right']] + wrong
            for (i, a), (j, b) in ((x, y) for x in enumerate(options) for y in enumerate(options) if x[0] < y[0]):
                if same_claim(a, b):
                    problem(f'{relative}: quiz options {i + 1} and {j + 1} say the same thing')
    guards = card.get('guardedNumbers')
    if isinstance(guards, list):
        for guard in guards:
            if not isinstance(guard, dict) or set(guard) != {'number', 'phrase'} \
                    or not all(isinstance(guard[k], str) and guard[k] for k in ('number', 'phrase')):
                problem(f'{relative}: a guarded number is {{"number": …, "phrase": …}}: {guard!r}')
                continue
            if number_kind(guard['number']) is None:
                problem(f'{relative}: guarded number {guard["number"]!r} is neither 1/N nor a number with a unit')
            try:
                re.compile(guard['phrase'])
            except re.error as error:
                problem(f'{relative}: guarded phrase {guard["phrase"]!r} is not a regular expression ({error})')


def check_quiz_options(knowledge, problem):
    """Across the cards: no wrong option of one card is a wrong option of another (nor says the same thing), and the
    right option is the longest of its card in at most half of the cards (a learner must not pick by length)."""
    seen = []  # (card id, text)
    longest = []
    for card in knowledge.faq:
        quiz = card.get('quiz')
        if not isinstance(quiz, dict) or not isinstance(quiz.get('wrong'), list) or not isinstance(quiz.get('right'), str):
            continue
        for text in quiz['wrong']:
            if not isinstance(text, str):
                continue
            for other, earlier in seen:
                if other != card['id'] and same_claim(text, earlier):
                    problem(f'{KNOWLEDGE}/faq/{card["id"]}.json: a wrong option is also one of {other}\'s: {text!r}')
            seen.append((card['id'], text))
        options = [quiz['right']] + [t for t in quiz['wrong'] if isinstance(t, str)]
        if len(quiz['right']) >= max(len(t) for t in options):
            longest.append(card['id'])
    cards = [c for c in knowledge.faq if isinstance(c.get('quiz'), dict)]
    if cards and len(longest) * 2 > len(cards):
        problem(f'{KNOWLEDGE}/faq: the right option is the longest in {len(longest)} of {len(cards)} cards '
                f'({", ".join(longest)}); at most half may be')


# ---------------------------------------------------------------------------------------------- guarded numbers

UNITS = {'s': 's', 'sec': 's', 'second': 's', 'seconds': 's', 'px': 'px', 'pixel': 'px', 'pixels': 'px',
         'mb': 'MB', 'megabytes': 'MB', 'character': 'characters', 'characters': 'characters', 'chars': 'characters',
         'day': 'days', 'days': 'days', 'downloads': 'downloads', 'bytes': 'bytes'}
RATIO = re.compile(r'(?<![\d.,/])1\s*/\s*(\d[\d,_]*)')
WITH_UNIT = re.compile(r'(?<![\w.,/])(\d[\d,_]*(?:\.\d+)?)\s*(' + '|'.join(sorted(UNITS, key=len, reverse=True))
                       + r')\b', re.IGNORECASE)


def number_value(text):
    return float(text.replace(',', '').replace('_', ''))


def number_kind(text):
    """("ratio", 15728640.0) for "1/15,728,640"; ("px", 15728640.0) for "15,728,640 pixels"; None otherwise."""
    text = text.strip()
    match = RATIO.fullmatch(text)
    if match:
        return 'ratio', number_value(match.group(1))
    match = WITH_UNIT.fullmatch(text)
    if match:
        return UNITS[match.group(2).lower()], number_value(match.group(1))
    return None


def numbers_in(text, kind):
    """[(as written, value)] of the numbers of `kind` in `text`."""
    if kind == 'ratio':
        return [(m.group(0), number_value(m.group(1))) for m in RATIO.finditer(text)]
    return [(m.group(0), number_value(m.group(1))) for m in WITH_UNIT.finditer(text) if UNITS[m.group(2).lower()] == kind]


def doc_comments(root):
    """[(path, first line, text)] of every doc comment under Sources/: a run of `///` lines, or a `/** … */`."""
    found = []
    for directory, _, names in os.walk(os.path.join(root, 'Sources')):
        for name in sorted(names):
            if not name.endswith('.swift'):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, root)
            with open(path, encoding='utf-8') as handle:
                lines = handle.read().split('\n')
            block, start, in_star = [], 0, False
            for number, line in enumerate(lines, 1):
                stripped = line.strip()
                if in_star:
                    block.append(stripped.lstrip('*').strip())
                    if '*/' in stripped:
                        found.append((relative, start, ' '.join(block)))
                        block, in_star = [], False
                    continue
                if stripped.startswith('///'):
                    if not block:
                        start = number
                    block.append(stripped[3:].strip())
                    continue
                if block:
                    found.append((relative, start, ' '.join(block)))
                    block = []
                if stripped.startswith('/**'):
                    start, in_star, block = number, '*/' not in stripped, [stripped[3:]]
                    if not in_star:
                        found.append((relative, start, ' '.join(block)))
                        block = []
            if block:
                found.append((relative, start, ' '.join(block)))
    return found


def check_guarded_numbers(knowledge, root, problem, comments=None):
    """A card's `guardedNumbers` are the numbers its rule states, each with a phrase (a regular expression, case
    ignored) that a text about that rule mentions. Every doc comment under Sources/ that mentions the phrase and
    states a number of the same kind (a ratio 1/N, or a number with the same unit) must state the card's number."""
    comments = doc_comments(root) if comments is None else comments
    for card in knowledge.faq:
        for guard in card.get('guardedNumbers') or []:
            kind = number_kind(guard.get('number', '')) if isinstance(guard, dict) else None
            if kind is None:
                continue
            phrase = re.compile(guard['phrase'], re.IGNORECASE)
            for path, line, text in comments:
                if not phrase.search(text):
                    continue
                for written, value in numbers_in(text, kind[0]):
                    if value != kind[1]:
                        problem(f'{path}:{line}: a doc comment about "{guard["phrase"]}" states {written}, but '
                                f'{card["id"]} states {guard["number"]}')


# ---------------------------------------------------------------------------------------------- follow-up tokens

def citations_of(knowledge):
    """[(card id, tag, file, lines, token)] of every follow-up, in card order."""
    found = []
    for card in knowledge.faq:
        for follow_up in card.get('followUps') or []:
            original = follow_up.get('original') if isinstance(follow_up, dict) else None
            if isinstance(original, dict) and all(isinstance(original.get(k), str) for k in ORIGINAL):
                found.append((card['id'],) + tuple(original[k] for k in ORIGINAL))
    return found


def read_original(source, tag, path):
    """The text of `path` at `tag`: `git show TAG:PATH` when `source` is a git directory (a clone or a bare mirror),
    else the file `source/TAG/PATH` (a folder of unpacked tags). None when there is no such file."""
    import subprocess
    try:
        inside = subprocess.run(['git', '-C', source, 'rev-parse', '--git-dir'], capture_output=True).returncode == 0
    except OSError:
        inside = False
    if inside:
        shown = subprocess.run(['git', '-C', source, 'show', f'{tag}:{path}'], capture_output=True)
        return shown.stdout.decode('utf-8', 'replace') if shown.returncode == 0 else None
    try:
        with open(os.path.join(source, tag, path), encoding='utf-8', errors='replace') as handle:
            return handle.read()
    except OSError:
        return None


def cited_lines(text, lines):
    """The cited lines of `text` ("12" or "12-14") joined by newlines; None when they are past its end."""
    match = LINES_PATTERN.fullmatch(lines)
    first = int(match.group(1))
    last = int(match.group(2) or first)
    all_lines = text.split('\n')
    if text.endswith('\n'):
        all_lines.pop()
    if first < 1 or last > len(all_lines):
        return None
    return '\n'.join(all_lines[first - 1:last])


def sha1(text):
    import hashlib
    return hashlib.sha1(text.encode('utf-8')).hexdigest()


def verify_tokens(knowledge, source, problem):
    """Reads every follow-up's lines at its tag from `source`; returns the record's rows (tag, file, lines, token,
    sha1 of those lines) of the citations whose token is on their lines; each other citation is a problem."""
    rows, texts = set(), {}
    for card_id, tag, path, lines, token in citations_of(knowledge):
        if (tag, path) not in texts:
            texts[tag, path] = read_original(source, tag, path)
        text = texts[tag, path]
        if text is None:
            problem(f'{card_id}: {path} does not exist at {tag} in {source}')
            continue
        if not LINES_PATTERN.fullmatch(lines):
            continue
        cited = cited_lines(text, lines)
        if cited is None:
            problem(f'{card_id}: {path} has no line {lines} at {tag}')
        elif token not in cited:
            problem(f'{card_id}: {token!r} is not on {path}:{lines} at {tag}')
        else:
            rows.add((tag, path, lines, token, sha1(cited)))
    return sorted(rows, key=lambda row: (version_key(row[0]), row[1], [int(n) for n in row[2].split('-')], row[3]))


def record_text(rows):
    header = ['# Follow-up citations checked against SDWebImage: tag, file, lines, token, sha1 of those lines (joined '
              'by newlines).', '# Written by scripts/knowledge.py --verify-tokens <SDWebImage git dir or folder of '
              'tags>; --check compares the cards with it offline.']
    return '\n'.join(header + ['\t'.join(row) for row in rows]) + '\n'


def read_record(root, problem):
    """{(tag, file, lines): (token, sha1)} of Docs/knowledge/verified-tokens.tsv."""
    record = {}
    try:
        with open(os.path.join(root, TOKEN_RECORD), encoding='utf-8') as handle:
            for number, line in enumerate(handle, 1):
                if line.startswith('#') or not line.strip():
                    continue
                fields = line.rstrip('\n').split('\t')
                if len(fields) != 5:
                    problem(f'{TOKEN_RECORD}:{number}: not tag, file, lines, token, sha1')
                    continue
                record.setdefault(tuple(fields[:3]), []).append((fields[3], fields[4]))
    except OSError:
        problem(f'{TOKEN_RECORD}: no such file (run scripts/knowledge.py --verify-tokens <SDWebImage git dir>)')
    return record


def check_token_record(knowledge, root, problem):
    """Offline: every follow-up citation is in the record with the same token, and the record holds nothing else."""
    record = read_record(root, problem)
    cited = set()
    for card_id, tag, path, lines, token in citations_of(knowledge):
        cited.add((tag, path, lines, token))
        rows = record.get((tag, path, lines), [])
        if not any(recorded == token for recorded, _ in rows):
            problem(f'{KNOWLEDGE}/faq/{card_id}.json: {token!r} at {tag} {path}:{lines} is not in {TOKEN_RECORD} '
                    f'(run scripts/knowledge.py --verify-tokens <SDWebImage git dir>)')
    for (tag, path, lines), rows in record.items():
        for token, _ in rows:
            if (tag, path, lines, token) not in cited:
                problem(f'{TOKEN_RECORD}: {tag} {path}:{lines} {token!r} is cited by no follow-up (run --verify-tokens)')


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
    if arguments[:1] == ['--verify-tokens']:
        if len(arguments) != 2:
            print('usage: scripts/knowledge.py --verify-tokens <SDWebImage git dir, or a folder of tags>', file=sys.stderr)
            return 2
        problems = []
        knowledge = load(ROOT, problems.append)
        rows = verify_tokens(knowledge, arguments[1], problems.append)
        if problems:
            print('\n'.join(f'knowledge: {p}' for p in problems), file=sys.stderr)
            return 1
        with open(os.path.join(ROOT, TOKEN_RECORD), 'w', encoding='utf-8') as handle:
            handle.write(record_text(rows))
        print(f'knowledge: {len(rows)} follow-up citations verified; wrote {TOKEN_RECORD}')
        return 0
    check = '--check' in arguments
    problems = []
    knowledge = load(ROOT, problems.append)
    check_token_record(knowledge, ROOT, problems.append)
    check_guarded_numbers(knowledge, ROOT, problems.append)
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
