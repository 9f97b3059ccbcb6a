#!/usr/bin/env python3
"""Counts the SDPort module's public symbols that have no doc comment of their own.

A symbol counts when it is declared in Sources/SDPort (the symbol graph gives its file) and its doc comment is
missing or is the one it inherits from a protocol of another module (Swift's `rawValue`, Foundation's
`errorCode`): docc would show the inherited text, which says nothing about the port. Members the compiler
synthesizes (`hash(into:)`, the SetAlgebra methods of an OptionSet) have no file and are not counted.
Prints the count; writes the list, one `file:line symbol` a line, to the folder's undocumented.txt.

Usage: python3 scripts/docc-coverage.py SYMBOL_GRAPH_DIR [--module SDPort]
"""
import glob
import json
import os
import sys


def main():
    folder = sys.argv[1]
    module = sys.argv[sys.argv.index('--module') + 1] if '--module' in sys.argv else 'SDPort'
    missing = {}
    paths = glob.glob(os.path.join(folder, f'{module}.symbols.json')) + \
        glob.glob(os.path.join(folder, f'{module}@*.symbols.json'))
    for path in paths:
        with open(path, encoding='utf-8') as handle:
            graph = json.load(handle)
        for symbol in graph['symbols']:
            location = symbol.get('location', {})
            uri = location.get('uri', '')
            if f'/Sources/{module}/' not in uri:
                continue
            doc = symbol.get('docComment')
            own = doc and doc.get('module', module) == module and any(l['text'].strip() for l in doc['lines'])
            if not own:
                file = uri.split(f'/Sources/{module}/', 1)[1]
                line = location.get('position', {}).get('line', 0) + 1
                missing[symbol['identifier']['precise']] = f"Sources/{module}/{file}:{line} " + \
                    '.'.join(symbol['pathComponents'])
    with open(os.path.join(folder, 'undocumented.txt'), 'w', encoding='utf-8') as handle:
        handle.write(''.join(line + '\n' for line in sorted(missing.values())))
    print(len(missing))


if __name__ == '__main__':
    main()
