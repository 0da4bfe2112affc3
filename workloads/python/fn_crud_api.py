# SPDX-License-Identifier: MIT
"""crud-api: SeBS 130's shopping-cart service over SQLite with Python's
sqlite3 module (standard library; Debian's libsqlite3), as crud-api.c does
with SQLite linked in: the same schema, WAL, synchronous=NORMAL, one
autocommit statement per request.

init creates the database in a scratch directory of its own (removed at
exit) and inserts the base carts in one transaction; both the base rows
and every invoke's requests come from `cvmfn prepare crud-api` (base,
sessions: crud-api.c's draws). invoke runs the sessions as crud-api.c
does: clear, add, read, update every third, delete every fifth from the
second, read, read a base cart. The digest (every row and total read) is
the C one's; --output writes a VACUUM INTO copy, made after the call's end
time as the C one's is (wl_out_file_with).
"""
import atexit
import os
import shutil
import sqlite3
import struct
import tempfile

import inputs

REQUIRES = []
SCHEMA = """
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE cart(id INTEGER PRIMARY KEY, user TEXT NOT NULL,
 product TEXT NOT NULL, qty INTEGER NOT NULL, price INTEGER NOT NULL);
CREATE INDEX cart_user ON cart(user);
"""
INSERT = "INSERT INTO cart(user, product, qty, price) VALUES(?, ?, ?, ?)"
SELECT = "SELECT product, qty, price FROM cart WHERE user = ? ORDER BY id"
TOTAL = "SELECT COUNT(*), COALESCE(SUM(qty * price), 0) FROM cart WHERE user = ?"


def parse_sessions(text):
    """[(user, [(product, qty, cents)], [(index, qty)], base_user)]"""
    sessions = []
    for line in text.decode().splitlines():
        word = line.split()
        if word[0] == "session":
            sessions.append((word[1], [], [], None))
        elif word[0] == "add":
            sessions[-1][1].append((word[2], int(word[3]), int(word[4])))
        elif word[0] == "update":
            sessions[-1][2].append((int(word[1]), int(word[2])))
        else:
            sessions[-1] = sessions[-1][:3] + (word[1],)
    return sessions


class Function:
    threads = 1

    def __init__(self, params):
        if params.input:
            raise ValueError("crud-api takes no --input")
        base = [line.split()[1:] for line in
                inputs.read(params, "crud-api", "base").decode().splitlines()]
        self.sessions = parse_sessions(inputs.read(params, "crud-api", "sessions"))
        os.makedirs(params.scratch_dir, exist_ok=True)
        self.scratch = tempfile.mkdtemp(prefix="crud-api-python-", dir=params.scratch_dir)
        atexit.register(shutil.rmtree, self.scratch, True)
        self.db = sqlite3.connect(os.path.join(self.scratch, "cart.db"),
                                  isolation_level=None, check_same_thread=False)
        self.db.executescript(SCHEMA)
        self.db.execute("BEGIN")
        self.db.executemany(INSERT, ((u, p, int(q), int(c)) for u, p, q, c in base))
        self.db.execute("COMMIT")
        self.output, self.summary = params.output, ""

    def read_cart(self, user, out):
        out.ref(user.encode() + b"\0")
        for product, qty, price in self.db.execute(SELECT, (user,)):
            out.ref(product.encode() + b"\0")
            out.ref(struct.pack("<QQ", qty, price))
        items, cents = self.db.execute(TOTAL, (user,)).fetchone()
        out.ref(struct.pack("<QQ", items, cents))
        return items, cents

    def run_session(self, session, out):
        user, adds, updates, base = session
        db = self.db
        db.execute("DELETE FROM cart WHERE user = ?", (user,))
        ids = [db.execute(INSERT, (user, p, q, c)).lastrowid for p, q, c in adds]
        self.read_cart(user, out)
        for index, qty in updates:
            db.execute("UPDATE cart SET qty = ? WHERE id = ?", (qty, ids[index]))
        for index in range(1, len(ids), 5):
            db.execute("DELETE FROM cart WHERE id = ?", (ids[index],))
        items, cents = self.read_cart(user, out)
        self.read_cart(base, out)
        return items, cents, len(adds), len(updates), len(range(1, len(ids), 5))

    def invoke(self, out):
        items = cents = inserts = updates = deletes = 0
        for session in self.sessions:
            i, c, n_ins, n_upd, n_del = self.run_session(session, out)
            items, cents = items + i, cents + c
            inserts, updates, deletes = inserts + n_ins, updates + n_upd, deletes + n_del
        out.u64(items)
        out.u64(cents)
        self.summary = ("%d inserts, %d updates, %d deletes, %d cart reads; "
                        "session carts: %d items, total %d cents (sqlite3 %s)" % (
                            inserts, updates, deletes, 3 * len(self.sessions), items,
                            cents, sqlite3.sqlite_version))
        if self.output:
            out.file(self.output, self.copy)      # made after the end time, as in C

    def copy(self):
        tmp = os.path.join(self.scratch, "output.db")
        if os.path.exists(tmp):
            os.unlink(tmp)
        self.db.execute("VACUUM INTO ?", (tmp,))
        with open(tmp, "rb") as f:
            data = f.read()
        os.unlink(tmp)
        return data
