"""How the docs cite code, shared by Docs/walkthrough/src/resolve.py and scripts/parity-ledger.py.

- [[path#text]] → `path:line`, the first line of that file (from the package root) containing the text.
- {{File.m symbol}} → the original's line at tag 4.4.8 with a link, from Docs/original-lines.tsv; a header's
  method points at its .m.
- {{5: Core/File.m symbol}} → the same at tag 5.21.5, from Docs/original-lines-5.21.5.tsv.

Each function reports what it cannot resolve through `problem(message)` and leaves a visible placeholder.
"""
import os
import re

TAGS = {'4.4.8': 'original-lines.tsv', '5.21.5': 'original-lines-5.21.5.tsv'}
PORT_MARKER = re.compile(r'\[\[([^#\]]+)#([^\]]+)\]\]')
ORIGINAL_MARKER = re.compile(r'\{\{([^ }]+) ([^}]+)\}\}')
ORIGINAL5_MARKER = re.compile(r'\{\{5: ([^ }]+) ([^}]+)\}\}')


def read_original_tables(root):
    """{tag: {(file, symbol): line}} for every tag's table in Docs/."""
    tables = {}
    for tag, name in TAGS.items():
        table = {}
        with open(os.path.join(root, 'Docs', name), encoding='utf-8') as handle:
            for row in handle.read().split('\n'):
                fields = row.split('\t')
                if len(fields) == 3 and not row.startswith('#'):
                    table[(fields[0], fields[1])] = int(fields[2])
        tables[tag] = table
    return tables


def find_original(table, file, symbol):
    """(file, line) where the table has `symbol`: a header's symbol is looked up in its .m first. None if absent."""
    for candidate in ([file[:-2] + '.m'] if file.endswith('.h') else []) + [file]:
        if (candidate, symbol) in table:
            return candidate, table[(candidate, symbol)]
    return None


def original_link(tag, symbol, file, line):
    url = f'https://github.com/SDWebImage/SDWebImage/blob/{tag}/SDWebImage/{file}#L{line}'
    return f'[`{symbol}` — `SDWebImage/{file}:{line}`]({url})'


def port_line(root, path, text, problem):
    """The number of the first line of `path` containing `text`; None (and a problem) when the file or text is gone."""
    try:
        with open(os.path.join(root, path), encoding='utf-8') as handle:
            lines = handle.read().split('\n')
    except OSError:
        problem(f'{path}: no such file')
        return None
    for number, line in enumerate(lines, 1):
        if text in line:
            return number
    problem(f'no line of {path} contains {text!r}')
    return None


def resolve_markers(text, root, tables, problem):
    """`text` with every [[path#text]], {{5: File.m symbol}} and {{File.m symbol}} marker replaced."""
    def cite_port(match):
        number = port_line(root, match.group(1), match.group(2), problem)
        return f'{match.group(1)}:{number if number is not None else "?"}'

    def citer(tag):
        def cite_original(match):
            file, symbol = match.group(1), match.group(2).strip()
            found = find_original(tables[tag], file, symbol)
            if found is None:
                problem(f'{file} {symbol}: not in Docs/{TAGS[tag]} (not in {tag}?)')
                return f'`{file} {symbol}`'
            return original_link(tag, symbol, *found)
        return cite_original

    text = PORT_MARKER.sub(cite_port, text)
    text = ORIGINAL5_MARKER.sub(citer('5.21.5'), text)
    return ORIGINAL_MARKER.sub(citer('4.4.8'), text)
