#!/usr/bin/env python3
"""Writes Docs/original-lines.tsv: where each method, property, type, constant, function and macro of the
original SDWebImage 4.4.8 is defined, read from its source (facts: file, symbol, line; no code).

Run with a checkout of the original at tag 4.4.8 (for example `git archive 4.4.8 SDWebImage | tar -x -C /tmp/orig`):
    python3 scripts/original-lines.py /tmp/orig/SDWebImage

Symbols: `-selector:with:` and `+selector` for methods (the line of the implementation in the .m, else the
declaration in the .h), plain names for properties, NS_ENUM/NS_OPTIONS types, #define macros, static constants and
C functions. resolve.py, `sdport faq` and the tests build every citation of the original from this table.
"""
import os
import re
import sys

if len(sys.argv) != 2:
    sys.exit('usage: original-lines.py PATH/TO/SDWebImage (tag 4.4.8)')
source = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def without_parentheses(text):
    """Drops every balanced (...) group: types, casts and block signatures."""
    out, depth = [], 0
    for char in text:
        if char == '(':
            depth += 1
        elif char == ')':
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return ''.join(out)


def selector(declaration):
    body = without_parentheses(declaration[1:]).split('{')[0].split(';')[0]
    parts = re.findall(r'(\w+)\s*:', body)
    if parts:
        return ''.join(p + ':' for p in parts)
    words = re.findall(r'\w+', body)
    return words[0] if words else None


rows = {}
for name in sorted(os.listdir(source)):
    if not name.endswith(('.h', '.m')):
        continue
    with open(os.path.join(source, name), encoding='utf-8', errors='replace') as handle:
        lines = handle.read().split('\n')
    for number, line in enumerate(lines, 1):
        found = []
        if re.match(r'^[-+]\s*\(', line):
            # A method may wrap over several lines: read on to the opening brace or the semicolon.
            text, index = line, number
            while '{' not in text and ';' not in text and index < len(lines):
                text += ' ' + lines[index]
                index += 1
            sel = selector(text)
            if sel:
                found.append(line[0] + sel)
        match = re.match(r'^@property\s*(\([^)]*\))?\s*[^;]*?[\s*](\w+)\s*;', line)
        if match:
            found.append(match.group(2))
        match = re.match(r'^typedef\s+NS_(?:ENUM|OPTIONS)\s*\(\s*\w+\s*,\s*(\w+)\s*\)', line)
        if match:
            found.append(match.group(1))
        match = re.match(r'^#define\s+(\w+)', line)
        if match and not match.group(1).startswith('SD_') and not match.group(1).endswith('_h'):
            found.append(match.group(1))
        match = re.match(r'^static\s+(?:const\s+)?[\w\s*]*?\b(k\w+)\s*=', line)
        if match:
            found.append(match.group(1))
        match = re.match(r'^(?:FOUNDATION_EXPORT|inline|static inline|FOUNDATION_STATIC_INLINE)?\s*[\w\s*]*?\b(SD\w+)\s*\(', line)
        if match and not line.startswith((' ', '\t', '-', '+', '#', '/', 'typedef', '@')) and '=' not in line.split('(')[0]:
            found.append(match.group(1))
        for symbol in found:
            key = (name, symbol)
            # The first line seen: a method's definition in a .m, its declaration in a .h (readers of the
            # table look in the .m first for a header's method).
            if key not in rows:
                rows[key] = number

destination = os.path.join(root, 'Docs', 'original-lines.tsv')
with open(destination, 'w', encoding='utf-8') as handle:
    handle.write('# SDWebImage 4.4.8: file, symbol, line (made by scripts/original-lines.py from the original source)\n')
    for (name, symbol), number in sorted(rows.items()):
        handle.write(f'{name}\t{symbol}\t{number}\n')
print(f'original-lines.py: {len(rows)} symbols written to Docs/original-lines.tsv')
