"""manpage.py: what man/clyde.1 says, read from its mdoc source, for
tests/project/docs.sh, which sets it against what clyde does.

    python3 tests/tools/manpage.py COMMAND PAGE [ARGS...]

json-keys PAGE RECORD.json...  the keys the records have that The JSON
        record does not name, and the keys it names that no record has;
        prints nothing when they agree
csv-fields PAGE 1.03|2.00 HEADER  the field list and the header line of
        that profile's CSV section against HEADER, the header line clyde
        writes; prints nothing when they agree
csv-empty PAGE 1.03|2.00  the empty fields the page gives for -s 0 and
        for -n 0, one line each: "s0 FIRST LAST" and "n0 FIRST LAST"
        (1-based, inclusive)
empty-check FIRST LAST LINE  whether fields FIRST to LAST of the CSV
        LINE (negative: from its end) are empty and the fields around them
        are not; prints what is wrong
synopsis PAGE clyde|report  the options of the SYNOPSIS, one a line
options PAGE clyde|report  the options the page describes (OPTIONS, or
        REPORT's Output and Averages lists), one a line
help-options FILE  the options named in a --help text, one a line
    (with --usage, only those of its usage lines)
exit-statuses PAGE  the statuses listed under EXIT STATUS
bugs PAGE  the entries of BUGS, one a line
diagnostics PAGE SOURCE...  the messages of DIAGNOSTICS that the C
        SOURCE files do not print: each message's words between its
        placeholders (FILE, LINE, N, VALUE ...) must be in a string there
"""
import json
import re
import sys

MACRO = re.compile(r"^[A-Z][a-z][a-z]?$|^%[A-Z]$")
IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")
# JSON's own words, not keys
LITERALS = {"null", "true", "false"}
# mdoc's closing punctuation, apart from the words
PUNCT = {",", ".", ";", ":", "(", ")", "[", "]", "|"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def section(lines, start, stops=(".Sh ", ".Ss ")):
    """The lines after the one equal to start, up to the next heading."""
    i = lines.index(start) + 1
    out = []
    while i < len(lines) and not lines[i].startswith(stops):
        out.append(lines[i])
        i += 1
    return out


def tokens(line):
    """The words of an mdoc line, quotes honoured, escapes for '-' undone."""
    words = re.findall(r'"[^"]*"|\S+', line.lstrip("."))
    return [w.strip('"').replace("\\-", "-").replace("\\&", "")
            for w in words]


def flags_of(words):
    """The options after each Fl: "bDq" is -b -D -q, "-json" is --json."""
    out, on = [], False
    for w in words:
        if w == "Fl":
            on = True
        elif MACRO.match(w):
            on = False
        elif on and w not in ("|", ",", "=", "[", "]"):
            if w.startswith("-") and len(w) > 1 and w[1].isalpha():
                out.append("-" + w)
            elif re.match(r"^[A-Za-z]+$", w) and len(w) <= 3:
                out.extend("-" + c for c in w)
            elif re.match(r"^[A-Za-z]+$", w):
                out.append("-" + w)
    return out


def json_page_keys(lines):
    """Every key that The JSON record names: the tags of its list and the
    words marked with Ql (string values are marked with Qq)."""
    keys = set()
    for line in section(lines, ".Ss The JSON record"):
        if not line.startswith("."):
            continue
        words = tokens(line)
        if words and words[0] == "It":
            keys.update(w for w in words[1:] if IDENT.match(w) and
                        not MACRO.match(w))
            continue
        # the words of each Ql up to the next macro: one word is a key,
        # more are a phrase (.Ql clyde report --json)
        quoted = None
        for w in words + ["Ns"]:
            if MACRO.match(w):
                if quoted is not None and len(quoted) == 1 and \
                        IDENT.match(quoted[0]) and quoted[0] not in LITERALS:
                    keys.add(quoted[0])
                quoted = [] if w == "Ql" else None
            elif quoted is not None and w not in PUNCT:
                quoted.append(w)
    return keys


def ranks_item_keys(lines):
    """The keys named in the item of "ranks" (clyde-mpi's records only)."""
    body = section(lines, ".Ss The JSON record")
    i = body.index(".It ranks") + 1
    keys = set()
    while i < len(body) and not body[i].startswith(".It"):
        words = tokens(body[i])
        if words and words[0] == "Ql":
            keys.update(w for w in words[1:] if IDENT.match(w))
        i += 1
    return keys


def record_keys(value, phases, keys, strings):
    """Collect the keys (not the per-phase ones) and the string values."""
    if isinstance(value, list):
        for v in value:
            record_keys(v, phases, keys, strings)
    elif isinstance(value, dict):
        per_phase = set(value) == phases
        for k, v in value.items():
            if not per_phase:
                keys.add(k)
            record_keys(v, phases, keys, strings)
    elif isinstance(value, str):
        strings.add(value)


def json_keys(page, records):
    lines = read(page)
    named = json_page_keys(lines)
    keys, strings = set(), set()
    phases = set()
    for path in records:
        with open(path, encoding="utf-8") as f:
            rec = json.load(f)
        for r in rec if isinstance(rec, list) else [rec]:
            phases |= set(r["tests"])
    for path in records:
        with open(path, encoding="utf-8") as f:
            record_keys(json.load(f), phases, keys, strings)
    for k in sorted(keys - named):
        print("in a record, not named in The JSON record: %s" % k)
    # a word marked as a key may be a string value that a record has;
    # clyde-mpi's keys in ranks are in no single-process record (the
    # record of tests/mpi/ranks.sh has them)
    for k in sorted(named - keys - strings - ranks_item_keys(lines)):
        print("named in The JSON record, in no record: %s" % k)


def test_statuses(page, records):
    """The values of a test's "status" that the tests item names (each
    with Qq, up to the rate key) against those the records hold."""
    body = section(read(page), ".Ss The JSON record")
    i = body.index(".Ql status", body.index(".It tests")) + 1
    named = set()
    while i < len(body) and body[i] != ".Ql rate":
        words = tokens(body[i])
        named.update(w for w, m in zip(words[1:], words) if m == "Qq")
        i += 1
    seen = set()
    for path in records:
        with open(path, encoding="utf-8") as f:
            rec = json.load(f)
        for r in rec if isinstance(rec, list) else [rec]:
            seen.update(t["status"] for t in r["tests"].values())
    for s in sorted(seen - named):
        print("a status in a record, not named in tests: %s" % s)
    for s in sorted(named - seen):
        print("a status named in tests, in no record: %s" % s)


def csv_section(lines, profile):
    return section(lines, ".Ss The %s CSV line" % profile)


def csv_fields(page, profile, header):
    body = csv_section(read(page), profile)
    want = header.split(",")
    # the list of fields: the first tag list of the section
    start = next(i for i, l in enumerate(body) if l.startswith(".Bl -tag"))
    listed = []
    for line in body[start + 1:]:
        if line.startswith(".El"):
            break
        if not line.startswith(".It "):
            continue
        names = [w for w in tokens(line)[1:] if w != ","]
        if "..." in names:
            a, b = names[0], names[-1]
            if a in want and b in want:
                names = want[want.index(a):want.index(b) + 1]
        listed.extend(names)
    if listed != want:
        print("%s: the field list says %s" % (profile, ",".join(listed)))
    # the header line printed in the page, wrapped after commas
    text = "\n".join(body)
    blocks = re.findall(r"^\.Bd -literal\n(.*?)\n\.Ed$", text, re.S | re.M)
    printed = ["".join(b.split("\n")) for b in blocks
               if b.startswith(want[0] + ",")]
    if printed != [header]:
        print("%s: the header line says %s" % (profile, printed))
    m = re.search(r"one line of (\d+)\s+comma-separated fields", text)
    if m is None or int(m.group(1)) != len(want):
        print("%s: the field count says %s" %
              (profile, m.group(1) if m else "nothing"))


def csv_empty(page, profile):
    text = "\n".join(csv_section(read(page), profile))
    if profile == "2.00":
        for opt in ("s", "n"):
            m = re.search(r"^\.Fl %s Cm 0\nfields (\d+) to (\d+) are empty"
                          % opt, text, re.M)
            print("%s0 %s %s" % (opt, m.group(1), m.group(2)) if m else
                  "%s0 none" % opt)
        return
    # 1.03: "the name is followed by N empty fields", "ends with N"
    m = re.search(r"name is followed by (\d+) empty fields", text)
    print("s0 2 %d" % (1 + int(m.group(1))) if m else "s0 none")
    m = re.search(r"line ends with (\d+) empty fields", text)
    print("n0 -%s -1" % m.group(1) if m else "n0 none")


def empty_check(first, last, line):
    f = line.split(",")
    a = first - 1 if first > 0 else len(f) + first
    b = last - 1 if last > 0 else len(f) + last
    if any(f[a:b + 1]):
        print("fields %d to %d are not all empty: %s" % (first, last, line))
    for i in (a - 1, b + 1):
        if 0 <= i < len(f) and f[i] == "":
            print("field %d next to them is empty too: %s" % (i + 1, line))


def synopsis(page, command):
    body = section(read(page), ".Sh SYNOPSIS")
    blocks, cur = [], None
    for line in body:
        if line == ".Nm" or line.startswith(".Nm "):
            cur = [line]
            blocks.append(cur)
        elif cur is not None:
            cur.append(line)
    found = []
    for b in blocks:
        if b[0] != ".Nm":
            continue        # .Nm mpirun: Open MPI's options
        is_report = len(b) > 1 and b[1] == ".Cm report"
        if is_report != (command == "report"):
            continue
        for line in b:
            found.extend(flags_of(tokens(line)))
    print("\n".join(sorted(set(found))))


def options(page, command):
    lines = read(page)
    if command == "report":
        body = section(lines, ".Ss Output") + \
            section(lines, ".Ss Averages and comparisons")
    else:
        body = section(lines, ".Sh OPTIONS")
    found, depth, in_tag = [], 0, False
    for line in body:
        if line.startswith(".Bl"):
            depth += 1
        elif line.startswith(".El"):
            depth -= 1
        if depth != 1:
            continue
        if line.startswith(".It Xo"):
            in_tag = True
        elif line.startswith(".Xc"):
            in_tag = False
        elif line.startswith(".It ") or in_tag:
            found.extend(flags_of(tokens(line)))
    print("\n".join(sorted(set(found))))


def help_options(path, usage_only):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if usage_only:
        text = text.split("\n\n")[0]
    found = re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[A-Za-z])(?![\w])", text)
    print("\n".join(sorted(set(found))))


def exit_statuses(page):
    body = section(read(page), ".Sh EXIT STATUS")
    print("\n".join(l.split()[1] for l in body if re.match(r"^\.It \d+$", l)))


def bugs(page):
    body = section(read(page), ".Sh BUGS")
    entries, cur = [], []
    for line in body + [".Pp"]:
        if line == ".Pp":
            if cur:
                entries.append(" ".join(cur))
            cur = []
        else:
            cur.append(" ".join(tokens(line)) if line.startswith(".")
                       else line)
    print("\n".join(entries))


# the words of DIAGNOSTICS that stand for what a message names
PLACEHOLDERS = re.compile(r"\b(?:FILE|LINE|N|M|GEN|TAG|FIELD|VALUE|ERROR)\b")


def diagnostics(page, sources):
    body = section(read(page), ".Sh DIAGNOSTICS")
    text = ""
    for path in sources:
        with open(path, encoding="utf-8") as f:
            # "..." "..." over two lines is one string
            text += re.sub(r'"\s*\n\s*"', "", f.read())
    found = 0
    for line in body:
        if not line.startswith(".It Ql "):
            continue
        found += 1
        message = " ".join(tokens(line)[2:])
        for piece in PLACEHOLDERS.split(message):
            piece = piece.strip(" :'")
            # a number may be a constant's: "longer than %d bytes"
            forms = {piece, piece.replace("%", "%%"),
                     re.sub(r"\d+", "%d", piece)}
            if len(piece) >= 3 and not any(f in text for f in forms):
                print("not printed: %r (of %r)" % (piece, message))
    if found == 0:
        print("no message in DIAGNOSTICS")


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "json-keys":
        json_keys(args[0], args[1:])
    elif cmd == "csv-fields":
        csv_fields(args[0], args[1], args[2])
    elif cmd == "csv-empty":
        csv_empty(args[0], args[1])
    elif cmd == "empty-check":
        empty_check(int(args[0]), int(args[1]), args[2])
    elif cmd == "synopsis":
        synopsis(args[0], args[1])
    elif cmd == "options":
        options(args[0], args[1])
    elif cmd == "help-options":
        help_options(args[-1], args[0] == "--usage")
    elif cmd == "exit-statuses":
        exit_statuses(args[0])
    elif cmd == "bugs":
        bugs(args[0])
    elif cmd == "test-statuses":
        test_statuses(args[0], args[1:])
    elif cmd == "diagnostics":
        diagnostics(args[0], args[1:])
    else:
        sys.exit("manpage.py: unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
