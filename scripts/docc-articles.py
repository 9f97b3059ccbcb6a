#!/usr/bin/env python3
"""Turns the generated Markdown docs into DocC articles: one source, two renderings.

The walkthrough (Docs/walkthrough/NN-*.md, made from Docs/walkthrough/src/*.md.in by resolve.py) and the parity
ledger (Docs/PARITY.md) are read on GitHub as they are. This script copies the hand-written catalog
(Sources/SDPort/SDPort.docc) to a generated folder and adds to it one DocC article per chapter file it finds
(whatever NN-*.md exist: chapters, the FAQ, a myths page), one card article per question of a chapter made of
`### ID — question` sections (FAQ-01 …), the ledger, and an SVG image per box-drawing diagram and per Mermaid
block (scripts/docc_mermaid.py). Nothing is copied
by hand, so a template edit reaches both renderings.

What changes on the way:
- a link to another walkthrough file (`[Cache](03-cache.md)`, `walkthrough/08-….md#anchor`) becomes a DocC link
  (`[Cache](<doc:03-cache>)`, `<doc:08-…#Heading>`), and a link to a question's section becomes its card;
- a backticked name of a public SDPort type (`SDImageCache`) becomes a symbol link (``SDImageCache``) when the
  symbol graph has it; headings and link texts are left alone;
- a link to the port's own source (`../Sources/…#L87`) becomes its code text (the site has no copy of the
  sources); links to the original on GitHub stay;
- `<br>` in a table cell becomes "; " and a bare `<placeholder>` is escaped, since DocC drops inline HTML.

Usage (from the package root; scripts/docs-site.sh runs it):
    python3 scripts/docc-articles.py --catalog Sources/SDPort/SDPort.docc --symbol-graph DIR --out OUT.docc
"""
import argparse
import html
import json
import os
import re
import shutil
import sys

import docc_mermaid
from citations import github_slug  # the anchor GitHub gives a heading; the walkthrough checks its links with it

GENERATED = 'Generated'
MARKER = '<!-- generated-topics -->'
CARD_HEADING = re.compile(r'^### ([A-Z][A-Z0-9]*-\d+[A-Za-z]?) — (.+)$')
LINK = re.compile(r'\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)')
CODE_SPAN = re.compile(r'(?<!`)`([^`\n]+)`(?!`)')
BOX_CHARS = set('┌┐└┘│─├┤┬┴┼▼▲►◄╭╮╰╯═║')


def docc_fragment(heading):
    """The anchor DocC gives a heading: its plain text, runs of spaces and dashes joined by one '-'."""
    text = re.sub(r'`', '', heading)
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    parts = [p for p in re.split(r'[\s\-–—]+', text.strip()) if p]
    return '-'.join(parts)


def top_level_symbols(symbol_dir, module):
    """Public top-level names of the module (types, globals), from its symbol graph."""
    names = set()
    path = os.path.join(symbol_dir, f'{module}.symbols.json')
    with open(path, encoding='utf-8') as handle:
        graph = json.load(handle)
    for symbol in graph['symbols']:
        components = symbol.get('pathComponents', [])
        if len(components) == 1 and re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', components[0]):
            if not symbol['kind']['identifier'].endswith('func'):
                names.add(components[0])
    return names


class Page:
    """One walkthrough file read for conversion."""

    def __init__(self, path, name):
        self.path = path
        self.name = name  # the DocC article name (file name without .md)
        with open(path, encoding='utf-8') as handle:
            self.lines = handle.read().split('\n')
        # The "generated from" note on a generated file's first line is for the repository's readers, not the site.
        while self.lines and (self.lines[0].startswith('<!-- Generated') or not self.lines[0].strip()):
            self.lines.pop(0)
        if self.lines:
            self.lines[0] = plain_title(self.lines[0])
        self.lines = separate_abstract(self.lines)
        self.title = self.lines[0][2:].strip() if self.lines and self.lines[0].startswith('# ') else name
        self.anchors = {}  # GitHub slug → DocC fragment of the same heading
        self.cards = []  # (id, question, body lines) when the file is made of `### ID — question` sections
        for line in self.lines:
            m = re.match(r'^#{2,6} (.+)$', line)
            if m:
                self.anchors[github_slug(m.group(1))] = docc_fragment(m.group(1))


class Converter:
    def __init__(self, pages, symbols):
        self.pages = pages  # file name (e.g. 03-cache.md) → Page
        self.symbols = symbols
        self.card_of_slug = {}  # GitHub slug of a card's heading → card article name
        self.diagrams = []  # (file name, lines)

    def link(self, text, target, here):
        """A Markdown link rewritten for DocC, or None to keep it."""
        if re.match(r'^[a-z]+:', target):
            return None  # https:, mailto:, doc: — kept
        path, _, anchor = target.partition('#')
        base = os.path.basename(path)
        if path.endswith('.md') and base in self.pages:
            if anchor and anchor in self.card_of_slug:
                return f'[{text}](<doc:{self.card_of_slug[anchor]}>)'
            page = self.pages[base]
            fragment = page.anchors.get(anchor) if anchor else None
            return f'[{text}](<doc:{page.name}{"#" + fragment if fragment else ""}>)'
        if not path and anchor:
            if anchor in self.card_of_slug:
                return f'[{text}](<doc:{self.card_of_slug[anchor]}>)'
            fragment = here.anchors.get(anchor)
            return f'[{text}](<doc:{here.name}#{fragment}>)' if fragment else text
        # The port's own files (../Sources/…#L12, Tests/…): the site has no copy, so the text stays, unlinked.
        return text

    def inline(self, segment):
        """Symbol links and escapes in text outside links: backticked public types become ``Type``."""
        out = []
        last = 0
        for m in CODE_SPAN.finditer(segment):
            out.append(self.escape(segment[last:m.start()]))
            name = m.group(1)
            out.append(f'``{name}``' if name in self.symbols else m.group(0))
            last = m.end()
        out.append(self.escape(segment[last:]))
        return ''.join(out)

    @staticmethod
    def escape(text):
        # DocC drops inline HTML, so a bare <placeholder> would vanish; <doc:…> and <https://…> are links.
        return re.sub(r'<(?!doc:|https?:|/?br>)', '&lt;', text)

    def line(self, line, here, heading=False):
        line = re.sub(r'<br\s*/?>', '; ', line)
        out = []
        last = 0
        for m in LINK.finditer(line):
            before = line[last:m.start()]
            out.append(self.escape(before) if heading else self.inline(before))
            replaced = self.link(m.group(1), m.group(2), here)
            out.append(m.group(0) if replaced is None else replaced)
            last = m.end()
        rest = line[last:]
        out.append(self.escape(rest) if heading else self.inline(rest))
        return ''.join(out)

    def diagram_name(self, prefix):
        return f'{prefix}-diagram-{len([d for d in self.diagrams if d[0].startswith(prefix + "-diagram-")]) + 1}'

    def body(self, lines, here, diagram_prefix):
        """Converts lines outside code fences; a fenced box-drawing diagram becomes an SVG image."""
        out = []
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.lstrip().startswith('```'):
                fence = [line]
                i += 1
                while i < len(lines) and not lines[i].lstrip().startswith('```'):
                    fence.append(lines[i])
                    i += 1
                fence.append(lines[i] if i < len(lines) else '```')
                i += 1
                inner = fence[1:-1]
                if fence[0].strip() == '```mermaid':
                    name = self.diagram_name(diagram_prefix)
                    try:
                        image = docc_mermaid.render(inner)
                    except docc_mermaid.MermaidError as error:
                        sys.exit(f'docc-articles: {here.path}: {error}')
                    self.diagrams.append((name, image))
                    kind = 'sequence diagram' if inner and inner[0].strip() == 'sequenceDiagram' else 'diagram'
                    out.append(f'![The {kind} of {here.title}, drawn from a real run.]({name})')
                elif sum(1 for f in inner if set(f) & BOX_CHARS) >= 3:
                    name = self.diagram_name(diagram_prefix)
                    self.diagrams.append((name, svg(inner)))
                    out.append(f'![The diagram of {here.title}, as drawn in the Markdown walkthrough.]({name})')
                else:
                    out.extend(fence)
                continue
            picture = re.match(r'^!\[([^\]]*)\]\((?![a-z]+:)([^)]+\.svg)\)\s*$', line)
            if picture:
                # A picture the repository keeps (Benchmarks/pipeline-timeline.svg): the site gets a copy.
                source = os.path.normpath(os.path.join(os.path.dirname(here.path), picture.group(2)))
                try:
                    with open(source, encoding='utf-8') as handle:
                        image = handle.read()
                except OSError:
                    sys.exit(f'docc-articles: {here.path}: no picture {picture.group(2)}')
                name = 'picture-' + os.path.splitext(os.path.basename(source))[0]
                if all(existing != name for existing, _ in self.diagrams):
                    self.diagrams.append((name, image))
                out.append(f'![{picture.group(1)}]({name})')
                i += 1
                continue
            out.append(self.line(line, here, heading=bool(re.match(r'^#{1,6} ', line))))
            i += 1
        return out


def separate_abstract(lines):
    """DocC makes a page's first paragraph its abstract and drops the links in it; so a line with a link in the
    first paragraph (the chapters' "At tag 4.4.8: [...](https://…)") starts a paragraph of its own."""
    start = next((i for i in range(1, len(lines)) if lines[i].strip()), None)
    if start is None:
        return lines
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    for i in range(start + 1, end):
        if LINK.search(lines[i]):
            return lines[:i] + [''] + lines[i:]
    return lines


def plain_title(line):
    """The H1 without backticks: the navigator shows a title's Markdown as typed."""
    return line.replace('`', '') if line.startswith('# ') else line


def split_cards(page):
    """The `### ID — question` sections of a page, if it is made of them (three or more)."""
    starts = [i for i, line in enumerate(page.lines) if CARD_HEADING.match(line)]
    if len(starts) < 3:
        return None
    cards = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(page.lines)
        # A section ends at the next heading of level 2 or 3, whichever comes first.
        for j in range(start + 1, end):
            if re.match(r'^#{2,3} ', page.lines[j]):
                end = j
                break
        m = CARD_HEADING.match(page.lines[start])
        cards.append((m.group(1), m.group(2), start, end))
    return cards


def svg(lines):
    """A box-drawing diagram as an SVG of monospaced text, one <text> per line, so it scales and stays text."""
    width = max(len(line) for line in lines)
    char_w, line_h = 8.4, 17
    rows = []
    for n, line in enumerate(lines):
        rows.append(f'<text x="8" y="{20 + n * line_h}" xml:space="preserve">{html.escape(line)}</text>')
    w = int(width * char_w + 16)
    h = int(len(lines) * line_h + 16)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">\n'
            f'<rect width="100%" height="100%" fill="#ffffff"/>\n'
            f'<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14" fill="#1d1d1f">\n'
            + '\n'.join(rows) + '\n</g>\n</svg>\n')


def article_name(file_name):
    return file_name[:-3]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--catalog', required=True, help='the hand-written .docc catalog')
    parser.add_argument('--symbol-graph', required=True, help='folder with SDPort.symbols.json')
    parser.add_argument('--out', required=True, help='the catalog copy to write (replaced)')
    parser.add_argument('--walkthrough', default='Docs/walkthrough')
    parser.add_argument('--ledger', default='Docs/PARITY.md')
    parser.add_argument('--module', default='SDPort')
    args = parser.parse_args()

    files = sorted(f for f in os.listdir(args.walkthrough) if re.fullmatch(r'\d\d-[A-Za-z0-9._-]+\.md', f))
    if not files:
        sys.exit(f'docc-articles: no NN-*.md chapter in {args.walkthrough}')
    pages = {f: Page(os.path.join(args.walkthrough, f), article_name(f)) for f in files}
    ledger = Page(args.ledger, 'Parity-Ledger')
    converter = Converter(pages, top_level_symbols(args.symbol_graph, args.module))

    card_pages = {}
    for f, page in pages.items():
        cards = split_cards(page)
        if cards:
            card_pages[f] = cards
            for card_id, question, start, _ in cards:
                converter.card_of_slug[github_slug(page.lines[start][4:])] = card_id

    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    shutil.copytree(args.catalog, args.out)
    generated = os.path.join(args.out, GENERATED)
    os.makedirs(generated, exist_ok=True)

    def write(name, lines):
        with open(os.path.join(generated, name + '.md'), 'w', encoding='utf-8') as handle:
            handle.write('\n'.join(lines).rstrip('\n') + '\n')

    chapters = []
    for f, page in pages.items():
        prefix = page.name.split('-')[0]
        cards = card_pages.get(f)
        if not cards:
            write(page.name, converter.body(page.lines, page, prefix))
            chapters.append(page.name)
            continue
        # The page up to its first card, then a grid of cards, then whatever follows the last card.
        first, last_end = cards[0][2], cards[-1][3]
        head = converter.body(page.lines[:first], page, prefix)
        head[1:1] = ['', '@Options {', '    @TopicsVisualStyle(detailedGrid)', '}']
        tail = converter.body(page.lines[last_end:], page, prefix)
        topics = ['', '## Topics', '', '### Questions', '']
        topics += [f'- <doc:{card_id}>' for card_id, _, _, _ in cards]
        write(page.name, head + tail + topics)
        for card_id, question, start, end in cards:
            card_title = plain_title(f'# {card_id} — {question}')
            body = converter.body(page.lines[start + 1:end], page, card_id)
            back = ['', f'Part of <doc:{page.name}>.']
            write(card_id, [converter.line(card_title, page, heading=True)] + body + back)
        chapters.append(page.name)

    write(ledger.name, converter.body(ledger.lines, ledger, 'ledger'))

    resources = os.path.join(args.out, 'Resources')
    os.makedirs(resources, exist_ok=True)
    for name, image in converter.diagrams:
        with open(os.path.join(resources, name + '.svg'), 'w', encoding='utf-8') as handle:
            handle.write(image)

    # The landing page's topic groups for what exists now: the chapters (a myths page among them) and the ledger.
    landing = os.path.join(args.out, f'{args.module}.md')
    with open(landing, encoding='utf-8') as handle:
        text = handle.read()
    if MARKER not in text:
        sys.exit(f'docc-articles: {landing} lacks the line {MARKER}')
    topics = ['### The walkthrough', ''] + [f'- <doc:{c}>' for c in chapters]
    topics += ['', '### Proof', '', f'- <doc:{ledger.name}>']
    text = text.replace(MARKER, '\n'.join(topics))
    with open(landing, 'w', encoding='utf-8') as handle:
        handle.write(text)
    print(f'docc-articles: {len(chapters)} chapters, {sum(len(c) for c in card_pages.values())} cards, '
          f'1 ledger, {len(converter.diagrams)} diagrams → {args.out}')


if __name__ == '__main__':
    main()
