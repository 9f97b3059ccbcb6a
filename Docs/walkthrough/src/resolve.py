#!/usr/bin/env python3
"""Builds Docs/walkthrough/*.md and CONTRIBUTING.md from the templates in this folder.

A template cites code as [[path#text]]; the script writes path:line, the first line of that file containing the
text, so citations follow the code when lines move. It fails, naming the citation, when a file or text is gone.
07-faq.md.in gets the output of `sdport faq --markdown` where it says <!-- FAQ -->.

Run from the package root:
    swift run -q sdport faq --markdown > /tmp/faq.md
    python3 Docs/walkthrough/src/resolve.py /tmp/faq.md
"""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
walkthrough = os.path.dirname(here)
root = os.path.dirname(os.path.dirname(walkthrough))
faq = None
if len(sys.argv) > 1:
    with open(sys.argv[1], encoding='utf-8') as handle:
        faq = handle.read().rstrip('\n') + '\n'
problems = []


def cite(match):
    path, text = match.group(1), match.group(2)
    try:
        with open(os.path.join(root, path), encoding='utf-8') as handle:
            lines = handle.read().split('\n')
    except OSError:
        problems.append(f'{path}: no such file')
        return f'{path}:?'
    for number, line in enumerate(lines, 1):
        if text in line:
            return f'{path}:{number}'
    problems.append(f'{path}: no line contains {text!r}')
    return f'{path}:?'


for name in sorted(os.listdir(here)):
    if not name.endswith('.md.in'):
        continue
    with open(os.path.join(here, name), encoding='utf-8') as handle:
        text = handle.read()
    text = re.sub(r'\[\[([^#\]]+)#([^\]]+)\]\]', cite, text)
    if '<!-- FAQ -->' in text:
        if faq is None:
            problems.append(f'{name}: pass the output of `sdport faq --markdown`')
        else:
            text = text.replace('<!-- FAQ -->\n', faq)
    target = name[:-len('.in')]
    destination = os.path.join(root if target == 'CONTRIBUTING.md' else walkthrough, target)
    with open(destination, 'w', encoding='utf-8') as handle:
        handle.write(text)

if problems:
    print('resolve.py: ' + '\n'.join(problems), file=sys.stderr)
    sys.exit(1)
print('resolve.py: wrote the walkthrough and CONTRIBUTING.md')
