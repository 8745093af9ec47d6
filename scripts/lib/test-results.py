#!/usr/bin/env python3
"""Counts the results in the xUnit reports that `swift test --xunit-output FILE` writes.

    scripts/lib/test-results.py REPORT...

Swift Testing writes its report next to FILE as FILE-swift-testing.xml; XCTest writes FILE
itself, but only with `swift test --parallel` (this repository's tests are all Swift Testing).
scripts/test gives each phase a folder of its own and passes every report in it. Prints one line on stdout, "PASSED FAILED SKIPPED", summed over the
reports' test cases: a case with a <failure> or <error> failed, one with <skipped> was
skipped, any other passed (a parameterized test is one case, whatever its arguments). Prints
each failed case on stderr. Exits 2, printing why, when a report cannot be read or holds no
<testsuites>/<testsuite> root.
"""
import sys
import xml.etree.ElementTree as ElementTree


def count(path):
    root = ElementTree.parse(path).getroot()
    if root.tag not in ("testsuites", "testsuite"):
        raise ValueError("its root element is <%s>, not <testsuites>" % root.tag)
    passed, failed, skipped = 0, [], 0
    for case in root.iter("testcase"):
        name = "%s.%s" % (case.get("classname", "?"), case.get("name", "?"))
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(name)
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def main(paths):
    if not paths:
        print("usage: test-results.py REPORT...", file=sys.stderr)
        return 2
    passed, failed, skipped = 0, [], 0
    for path in paths:
        try:
            p, f, s = count(path)
        except (OSError, ElementTree.ParseError, ValueError) as error:
            print("test-results: cannot read %s: %s" % (path, error), file=sys.stderr)
            return 2
        passed, failed, skipped = passed + p, failed + f, skipped + s
    for name in failed:
        print("    failed: %s" % name, file=sys.stderr)
    print(passed, len(failed), skipped)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
