#!/usr/bin/python3
# tests/system/hostile-db.py DB MODE [PATH] - turn a cvmbench database into
# one a hostile machine could send to `cvmbench merge`, whose names would
# run SQL if merge pasted them into its statements. MODE:
#   table PATH   add a table, linked to run, named so that pasted into
#                INSERT INTO dst."%s" it commits and ATTACHes (creates) the
#                file PATH (keep PATH short: the old merge cut names at 63
#                bytes), with a column named a;b'c"d and a row
#   column PATH  rebuild table skip with one more column, named so that pasted
#                into the column list of its INSERT it commits and ATTACHes PATH
#   quote        add a table named it's (linked to run)
#   extra        add a column "note" to table metric (an unknown column)
# Written for tests only.
import sqlite3, sys

db = sqlite3.connect(sys.argv[1])
mode = sys.argv[2]
path = sys.argv[3] if len(sys.argv) > 3 else ""
# the path as an SQL expression without quotes: char(47, 116, ...)
attach = "COMMIT;ATTACH char(%s)AS y;--" % ",".join(str(ord(c)) for c in path)


def q(name):
    return '"' + name.replace('"', '""') + '"'


if mode == "table":
    name = 'run"SELECT*FROM run WHERE 0;' + attach
    db.execute("CREATE TABLE %s (run_id INTEGER REFERENCES run(id), %s)"
               % (q(name), q("a;b'c\"d")))
    db.execute("INSERT INTO %s SELECT id, 1 FROM run" % q(name))
elif mode == "column":
    col = 'reason")SELECT 1,2,3 WHERE 0;' + attach + "';"
    # skip keeps its own columns (a database without them is refused at open)
    db.executescript("DROP TABLE skip; CREATE TABLE skip (id INTEGER PRIMARY KEY, "
                     "run_id INTEGER REFERENCES run(id), cell_id INTEGER, probe TEXT, "
                     "reason TEXT NOT NULL, %s TEXT);"
                     "INSERT INTO skip SELECT NULL, id, NULL, NULL, 'x', 'x' FROM run;"
                     % q(col))
elif mode == "quote":
    db.execute("CREATE TABLE \"it's\" (run_id INTEGER REFERENCES run(id))")
    db.execute("INSERT INTO \"it's\" SELECT id FROM run")
elif mode == "extra":
    db.execute("ALTER TABLE metric ADD COLUMN note TEXT")
else:
    sys.exit("hostile-db.py: unknown mode " + mode)
db.commit()
