"""Unit tests of scripts/citations.py, the one parser of the docs' citation markers (run by scripts/test.sh)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import citations  # noqa: E402

SWIFT = '''import Foundation

/// A cache.
public final class Cache {
    private let lock = NSLock()

    public init(namespace: String, directory: String?) {
        let full = "ns." + namespace
        _ = full
    }

    public func store(_ image: Data?,
                      forKey key: String,
                      completion: (() -> Void)? = nil) {
        let path = key + ".png"
        _ = path
    }

    func query(forKey key: String, memoryKey: (@Sendable (Int) -> String?)? = nil,
               decode: @escaping (Data) -> Int?) -> Int {
        let queried = 1
        return queried
    }

    public var count: Int { 0 }
}

extension Cache {
    func remove(key: String) {
        print(key)
    }
}
'''


class PortSymbolTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.path = 'Sources/Cache.swift'
        os.makedirs(os.path.join(self.root, 'Sources'))
        self.write(SWIFT)

    def write(self, text):
        with open(os.path.join(self.root, self.path), 'w', encoding='utf-8') as handle:
            handle.write(text)

    def locate(self, text):
        problems = []
        found = citations.port_location(self.root, self.path, text, problems.append)
        return found, problems

    def test_a_body_line_is_named_by_its_member_and_type(self):
        (_, symbol), problems = self.locate('let full = "ns."')
        self.assertEqual(symbol, 'Cache.init(namespace:directory:)')
        self.assertEqual(problems, [])

    def test_a_multi_line_signature_gives_every_label(self):
        (_, symbol), _ = self.locate('let path = key')
        self.assertEqual(symbol, 'Cache.store(_:forKey:completion:)')

    def test_closure_parameters_do_not_hide_later_labels(self):
        self.assertEqual(self.locate('let queried = 1')[0][1], 'Cache.query(forKey:memoryKey:decode:)')

    def test_properties_types_and_extensions(self):
        self.assertEqual(self.locate('public var count')[0][1], 'Cache.count')
        self.assertEqual(self.locate('private let lock')[0][1], 'Cache.lock')
        self.assertEqual(self.locate('public final class Cache')[0][1], 'Cache')
        self.assertEqual(self.locate('print(key)')[0][1], 'Cache.remove(key:)')

    def test_moving_lines_does_not_change_the_citation(self):
        before = citations.resolve_markers('see [[Sources/Cache.swift#let path = key]]', self.root, {}, [].append,
                                           link_base='../../')
        self.write('// a new first line\n// and another\n' + SWIFT)
        after = citations.resolve_markers('see [[Sources/Cache.swift#let path = key]]', self.root, {}, [].append,
                                          link_base='../../')
        self.assertEqual(before, after)
        self.assertEqual(after, 'see [`Cache.swift` · `Cache.store(_:forKey:completion:)`](../../Sources/Cache.swift)')
        self.assertNotIn('#L', after)

    def test_a_missing_text_or_file_is_a_problem(self):
        found, problems = self.locate('no such text')
        self.assertIsNone(found)
        self.assertEqual(len(problems), 1)
        problems = []
        self.assertIsNone(citations.port_location(self.root, 'Sources/None.swift', 'x', problems.append))
        self.assertEqual(problems, ['Sources/None.swift: no such file'])

    def test_excerpt_is_headed_by_file_and_symbol(self):
        problems = []
        text = citations.excerpt(self.root, self.path, 'public func store', 'let path', problems.append, '../../')
        self.assertEqual(problems, [])
        self.assertTrue(text.startswith('[`Cache.swift` · `Cache.store(_:forKey:completion:)`](../../Sources/Cache.swift)'))
        self.assertIn('```swift\npublic func store(_ image: Data?,', text)


class OriginalCitationTests(unittest.TestCase):
    TABLE = {('A.m', '-first'): 10, ('A.m', '-second'): 20}

    def test_a_header_symbol_points_at_its_implementation(self):
        self.assertEqual(citations.find_original(self.TABLE, 'A.h', '-first'), ('A.m', 10))
        self.assertIsNone(citations.find_original(self.TABLE, 'A.h', '-third'))

    def test_a_deciding_line_must_lie_inside_its_symbol(self):
        problems = []
        citations.deciding(self.TABLE, 'A.m', '-first', 15, None, problems.append)
        self.assertEqual(problems, [])
        citations.deciding(self.TABLE, 'A.m', '-first', 21, None, problems.append)
        self.assertEqual(len(problems), 1)
        self.assertIn('outside the symbol', problems[0])

    def test_leftover_markers_are_found_whole(self):
        self.assertEqual(len(citations.leftovers('a `[[Sources/x.swift#f(a: [Int] = [],]]` b')), 1)
        self.assertEqual(citations.leftovers('[`A.swift` · `A.f()`](../../Sources/A.swift) and [[1, 2]]'), [])


    def test_a_link_to_a_missing_section_or_file_is_broken(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, 'Bench.md'), 'w', encoding='utf-8') as handle:
                handle.write("# Benchmarks\n\n## Where the pipeline's time goes\n")
            text = ("[a](Bench.md#where-the-pipelines-time-goes) [b](Bench.md#the-pipeline) "
                    "[c](Gone.md#x) [d](https://example.com/x.md#y) [e](Bench.md)")
            self.assertEqual(citations.broken_section_links(text, folder),
                             ['Bench.md#the-pipeline (no such heading)', 'Gone.md#x (no such file)'])

if __name__ == '__main__':
    unittest.main()
