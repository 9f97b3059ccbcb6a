#!/usr/bin/env python3
"""Builds Docs/walkthrough/*.md and CONTRIBUTING.md from the templates in this folder.

A template cites code as [[path#text]]; the script writes the file and the symbol that holds the first line of
that file containing the text, linked to the file (no line number: moving code never makes the docs stale). It fails, naming the citation, when a file or text is gone.
It cites the original as {{File.m symbol}} (a method `-selector:`, a property, type, macro or constant): the line
comes from Docs/knowledge/original-lines.tsv (scripts/original-lines.py, SDWebImage at tag 4.4.8) and is written with a link
to that line at tag 4.4.8; a symbol the table does not have fails. A header's method points at its .m.
{{5: Core/File.m symbol}} does the same at tag 5.21.5, from Docs/knowledge/original-lines-5.21.5.tsv (original-lines.py
--tag 5.21.5), whose files are paths under SDWebImage/.
The marker syntax lives in scripts/citations.py, which scripts/parity-ledger.py uses too.
07-faq.md.in gets the output of `sdport faq --markdown` where it says <!-- FAQ -->; that output carries the myths
page after a line <!-- MYTHS -->, which goes where a template says <!-- MYTHS --> (10-myths-and-versions.md.in).
Both come from the data in Docs/knowledge/ (faq/, myths/, parity/), which `sdport` carries as a resource.
A line <!-- DIFFERENCES --> becomes the table of deliberate differences, Docs/knowledge/differences/*.json in the
order of Docs/knowledge/index.json (scripts/knowledge.py; chapter 08).
A line <!-- DIAGRAM name --> becomes the ```mermaid block of Docs/diagrams/name.md (`sdport diagram` makes those).
In the walkthrough a port citation becomes a link to its line, and <<excerpt path#first#last>> cuts an excerpt of
the port's code from the sources (scripts/citations.py).

Run from the package root:
    swift run -q sdport faq --markdown > /tmp/faq.md
    python3 Docs/walkthrough/src/resolve.py /tmp/faq.md          # writes the files
    python3 Docs/walkthrough/src/resolve.py --check /tmp/faq.md  # writes nothing; fails when a written file is stale

--check (run by .ci/run) fails when a citation's file or text is gone, when a deciding line ({{File.m symbol #L12}})
lies outside its symbol, when an excerpt's first or last text is gone, when a [[...]] marker (brackets inside
included) is left unresolved in a written file, when a link names a section (`file.md#anchor`) that a Markdown file
of the repository does not have, or when a committed file differs from what the templates and the code make now — so a change
that moves a cited line, or a template edit, without regenerating is caught.
"""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
walkthrough = os.path.dirname(here)
root = os.path.dirname(os.path.dirname(walkthrough))
arguments = [a for a in sys.argv[1:] if a != '--check']
check = '--check' in sys.argv[1:]
faq = None
if arguments:
    with open(arguments[0], encoding='utf-8') as handle:
        faq = handle.read().rstrip('\n') + '\n'
myths = None
if faq is not None and '<!-- MYTHS -->\n' in faq:
    faq, myths = faq.split('<!-- MYTHS -->\n', 1)
    faq = faq.rstrip('\n') + '\n'
problems = []
sys.path.insert(0, os.path.join(root, 'scripts'))
import citations  # noqa: E402  (the marker syntax, shared with scripts/parity-ledger.py)
import knowledge  # noqa: E402  (Docs/knowledge/, read by scripts/parity-ledger.py too)

tables = citations.read_original_tables(root)
data = knowledge.load(root, lambda message: problems.append(f'Docs/knowledge: {message}'))

diagram_marker = re.compile(r'^<!-- DIAGRAM ([a-z0-9-]+) -->\n', re.MULTILINE)


def include_diagrams(text, name):
    """<!-- DIAGRAM x --> becomes the ```mermaid block of Docs/diagrams/x.md (made by `sdport diagram`), so the
    chapter draws it on GitHub and in the documentation site; the run's table of threads and times stays there."""
    def block(match):
        path = os.path.join(root, 'Docs', 'diagrams', match.group(1) + '.md')
        try:
            with open(path, encoding='utf-8') as handle:
                diagram = handle.read()
        except OSError:
            problems.append(f'{name}: no diagram {match.group(1)} (run `sdport diagram --all --output Docs/diagrams`)')
            return match.group(0)
        start = diagram.find('```mermaid\n')
        end = diagram.find('\n```\n', start)
        if start < 0 or end < 0:
            problems.append(f'{name}: Docs/diagrams/{match.group(1)}.md has no ```mermaid block')
            return match.group(0)
        return diagram[start:end + len('\n```\n')]
    return diagram_marker.sub(block, text)


stale = []
for name in sorted(os.listdir(here)):
    if not name.endswith('.md.in'):
        continue
    with open(os.path.join(here, name), encoding='utf-8') as handle:
        text = original = handle.read()
    target = name[:-len('.in')]
    # The FAQ and the myths go in first: their port citations are [[path#text]] markers too.
    if '<!-- MYTHS -->' in text:
        if myths is None:
            problems.append(f'{name}: pass the output of `sdport faq --markdown` (it carries the myths page)')
        else:
            text = text.replace('<!-- MYTHS -->\n', myths)
    if '<!-- FAQ -->' in text:
        if faq is None:
            problems.append(f'{name}: pass the output of `sdport faq --markdown`')
        else:
            text = text.replace('<!-- FAQ -->\n', faq)
    if knowledge.DIFFERENCES_MARKER in text:
        text = knowledge.fill_differences(text, data)
    text = citations.resolve_markers(text, root, tables, problems.append,
                                     link_base='' if target == 'CONTRIBUTING.md' else '../../')
    text = include_diagrams(text, name)
    sources = f'Docs/walkthrough/src/{name}' + (' and Docs/knowledge (through `sdport faq --markdown`)'
                                                 if '<!-- FAQ -->' in original or '<!-- MYTHS -->' in original
                                                 else ' and Docs/knowledge/differences'
                                                 if knowledge.DIFFERENCES_MARKER in original else '')
    text = f'<!-- Generated by scripts/docs.sh from {sources}: edit that, not this file. -->\n' + text
    for leftover in citations.leftovers(text):
        problems.append(f'{name}: unresolved marker {leftover}')
    destination = os.path.join(root if target == 'CONTRIBUTING.md' else walkthrough, target)
    for link in citations.broken_section_links(text, os.path.dirname(destination)):
        problems.append(f'{name}: a link to a section that does not exist: {link}')
    if check:
        try:
            with open(destination, encoding='utf-8') as handle:
                committed = handle.read()
        except OSError:
            committed = None
        if committed != text:
            stale.append(os.path.relpath(destination, root))
    else:
        with open(destination, 'w', encoding='utf-8') as handle:
            handle.write(text)

if stale:
    problems.append('out of date (run resolve.py without --check and commit): ' + ', '.join(stale))
if problems:
    print('resolve.py: ' + '\n'.join(problems), file=sys.stderr)
    sys.exit(1)
print('resolve.py: the walkthrough and CONTRIBUTING.md are current' if check
      else 'resolve.py: wrote the walkthrough and CONTRIBUTING.md')
