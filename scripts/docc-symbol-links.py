#!/usr/bin/env python3
"""Copies a module's symbol graphs, turning the doc comments' citations of the original into links.

Doc comments name the original as text: `SDWebImage/SDImageCache.m:177` (tag 4.4.8) or
`SDWebImage/Core/SDImageCache.m:118` (tag 5.21.5), sometimes a bare `SDImageCache.m:420` or a file without a line.
The sources stay as they are; this rewrites the copies docc reads, so each citation becomes a link to that line on
GitHub (and a bare `<placeholder>` outside code is escaped, since DocC would drop it as HTML). A bare file name is looked up in 4.4.8's files first, then in 5.21.5's Core (Docs/knowledge/original-lines*.tsv list
them; a name found in neither stays text).

Usage: python3 scripts/docc-symbol-links.py --module SDPort --in DIR --out DIR
"""
import argparse
import glob
import json
import os
import re

BASE = 'https://github.com/SDWebImage/SDWebImage/blob'
# A citation inside a code span: optional SDWebImage/ (and Core/), a file name, optional :line.
CITATION = re.compile(r'(?<![\[`])`((?:SDWebImage/)?(?:Core/|Private/)?[A-Za-z0-9_+]+\.[mh])(?::(\d+))?`(?!\]\()')

# Files of each tag (from Docs/knowledge/original-lines*.tsv, which scripts/original-lines.py makes from the original), so a
# bare name goes to the tag that has it.
FILES_448 = None
FILES_5 = None


def tag_files(tsv, prefix):
    """SDWebImage/… paths listed in one of the original-lines tables."""
    names = set()
    if os.path.exists(tsv):
        with open(tsv, encoding='utf-8') as handle:
            for row in handle:
                if row.strip() and not row.startswith('#'):
                    names.add(prefix + row.split('\t')[0])
    return names


def url(path, line):
    """The GitHub address of a cited path (with or without SDWebImage/), or None when it is not known."""
    global FILES_448, FILES_5
    if path.startswith('SDWebImage/Core/') or path.startswith('SDWebImage/Private/'):
        tag, full = '5.21.5', path
    elif path.startswith('SDWebImage/'):
        tag, full = '4.4.8', path
    elif path.startswith('Core/') or path.startswith('Private/'):
        tag, full = '5.21.5', 'SDWebImage/' + path
    else:
        if FILES_448 is None:
            docs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'Docs', 'knowledge')
            FILES_448 = tag_files(os.path.join(docs, 'original-lines.tsv'), 'SDWebImage/')
            FILES_5 = tag_files(os.path.join(docs, 'original-lines-5.21.5.tsv'), 'SDWebImage/')
        if FILES_448 and 'SDWebImage/' + path not in FILES_448 and 'SDWebImage/Core/' + path in FILES_5:
            tag, full = '5.21.5', 'SDWebImage/Core/' + path
        elif not FILES_448 or 'SDWebImage/' + path in FILES_448:
            tag, full = '4.4.8', 'SDWebImage/' + path
        else:
            return None
    return f'{BASE}/{tag}/{full}' + (f'#L{line}' if line else '')


def escape_placeholders(text):
    """DocC drops inline HTML, so `<caches dir>/<ns>` outside a code span would vanish: escape its '<'."""
    parts = re.split(r'(`+[^`]*`+)', text)
    return ''.join(part if part.startswith('`') else re.sub(r'<(?!doc:|https?:)', '&lt;', part) for part in parts)


def link_line(text):
    def replace(m):
        target = url(m.group(1), m.group(2))
        return f'[{m.group(0)}]({target})' if target else m.group(0)
    return CITATION.sub(replace, escape_placeholders(text))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--module', required=True)
    parser.add_argument('--in', dest='source', required=True)
    parser.add_argument('--out', required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    count = 0
    paths = glob.glob(os.path.join(args.source, f'{args.module}.symbols.json'))
    paths += glob.glob(os.path.join(args.source, f'{args.module}@*.symbols.json'))
    if not paths:
        raise SystemExit(f'docc-symbol-links: no {args.module} symbol graph in {args.source}')
    for path in paths:
        with open(path, encoding='utf-8') as handle:
            graph = json.load(handle)
        for symbol in graph.get('symbols', []):
            lines = (symbol.get('docComment') or {}).get('lines', [])
            # "3. `SDImageCache` looks in the memory cache." would start a numbered list and leave no abstract.
            if lines and re.match(r'^\d+\. ', lines[0]['text']):
                lines[0]['text'] = re.sub(r'^(\d+)\. ', r'\1\\. ', lines[0]['text'])
            for line in lines:
                new = link_line(line['text'])
                if new != line['text']:
                    count += new.count('](https://')
                    line['text'] = new
        with open(os.path.join(args.out, os.path.basename(path)), 'w', encoding='utf-8') as handle:
            json.dump(graph, handle)
    print(f'docc-symbol-links: {count} citations linked in {len(paths)} symbol graph file(s)')


if __name__ == '__main__':
    main()
