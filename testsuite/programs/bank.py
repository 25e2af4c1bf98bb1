# rpy3-args: 3000
"""Bank and inventory simulation exercising exception hierarchies,
try/except/else/finally, properties, class/static methods, sorting.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written (rpy3 first refused `cls.next_id = ...` in the class method; it works now).
"""
import sys
import random
from functools import total_ordering


class BankError(Exception):
    code = 1

    def __init__(self, msg):
        Exception.__init__(self, msg)
        self.msg = msg

    def describe(self):
        return "E%d %s" % (self.code, self.msg)


class InsufficientFunds(BankError):
    code = 2

    def __init__(self, account, amount):
        BankError.__init__(self, "account %s lacks %d.%02d" % (account, amount // 100, amount % 100))
        self.amount = amount


class AccountFrozen(BankError):
    code = 3


class UnknownAccount(BankError):
    code = 4


class LimitExceeded(InsufficientFunds):
    code = 5


@total_ordering
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __add__(self, other):
        return Money(self.cents + other.cents)

    def __sub__(self, other):
        return Money(self.cents - other.cents)

    def __eq__(self, other):
        return self.cents == other.cents

    def __lt__(self, other):
        return self.cents < other.cents

    def __hash__(self):
        return hash(self.cents)

    def __str__(self):
        sign = "-" if self.cents < 0 else ""
        c = abs(self.cents)
        return "%s$%d.%02d" % (sign, c // 100, c % 100)

    def __repr__(self):
        return "Money(%d)" % self.cents


class Account:
    next_id = 1000
    interest_bp = 0

    def __init__(self, owner, opening):
        self.id = "AC%d" % Account.next_id
        Account.next_id += 1
        self.owner = owner
        self._balance = Money(opening)
        self.frozen = False
        self.history = []

    @property
    def balance(self):
        return self._balance

    @balance.setter
    def balance(self, value):
        self.history.append(value.cents - self._balance.cents)
        self._balance = value

    def kind(self):
        return "basic"

    def can_withdraw(self, amount):
        return self._balance.cents >= amount

    def withdraw(self, amount):
        if self.frozen:
            raise AccountFrozen("account %s is frozen" % self.id)
        if not self.can_withdraw(amount):
            raise InsufficientFunds(self.id, amount)
        self.balance = self.balance - Money(amount)

    def deposit(self, amount):
        if self.frozen:
            raise AccountFrozen("account %s is frozen" % self.id)
        self.balance = self.balance + Money(amount)

    def month_end(self):
        if self._balance.cents > 0:
            self.deposit(self._balance.cents * self.interest_bp // 10000)

    @classmethod
    def reset_ids(cls):
        cls.next_id = 1000

    @staticmethod
    def parse_amount(text):
        if "." in text:
            whole, frac = text.split(".")
            return int(whole) * 100 + int((frac + "00")[:2])
        return int(text) * 100

    def __str__(self):
        return "%s[%s %s %s%s]" % (self.kind(), self.id, self.owner, self.balance,
                                   " FROZEN" if self.frozen else "")


class Savings(Account):
    interest_bp = 25

    def kind(self):
        return "savings"


class Checking(Account):
    def __init__(self, owner, opening, overdraft):
        Account.__init__(self, owner, opening)
        self.overdraft = overdraft

    def kind(self):
        return "checking"

    def can_withdraw(self, amount):
        return self._balance.cents + self.overdraft >= amount

    def withdraw(self, amount):
        if amount > 500000:
            raise LimitExceeded(self.id, amount)
        Account.withdraw(self, amount)

    def month_end(self):
        if self._balance.cents < 0:
            self.balance = self.balance - Money(500)


class Bank:
    def __init__(self, name):
        self.name = name
        self.accounts = {}
        self.errors = {}
        self.transfers = 0
        self.audit = []

    def open(self, acct):
        self.accounts[acct.id] = acct
        return acct

    def get(self, aid):
        try:
            return self.accounts[aid]
        except KeyError:
            raise UnknownAccount("no account " + aid)

    def transfer(self, src, dst, amount):
        a = self.get(src)
        b = self.get(dst)
        ok = False
        try:
            a.withdraw(amount)
            try:
                b.deposit(amount)
            except BankError:
                a.deposit(amount)      # roll back
                raise
            ok = True
        except InsufficientFunds as e:
            self.note(e)
        except BankError as e:
            self.note(e)
        else:
            self.transfers += 1
        finally:
            self.audit.append((src, dst, amount, ok))
        return ok

    def note(self, e):
        key = type(e).__name__ if False else e.describe().split(" ")[0]
        self.errors[key] = self.errors.get(key, 0) + 1

    def total(self):
        t = Money(0)
        for a in self.accounts.values():
            t = t + a.balance
        return t


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 1000
    random.seed(42)
    Account.reset_ids()
    bank = Bank("First RPython")
    owners = ["ann", "bob", "cy", "dee", "eve", "fay"]
    ids = []
    for i, o in enumerate(owners):
        if i % 3 == 0:
            acct = Savings(o, 100000 + i * 1000)
        elif i % 3 == 1:
            acct = Checking(o, 5000 * i, 20000)
        else:
            acct = Account(o, 25000)
        ids.append(bank.open(acct).id)
    ids.append("AC9999")
    before = bank.total()
    for step in range(n):
        src = random.choice(ids)
        dst = random.choice(ids)
        amount = random.randint(1, 40000)
        if step % 97 == 0:
            amount = 600000
        if step == n // 3:
            bank.accounts[ids[2]].frozen = True
        if step == 2 * n // 3:
            bank.accounts[ids[2]].frozen = False
        try:
            bank.transfer(src, dst, amount)
        except UnknownAccount as e:
            bank.note(e)
        if step % 500 == 499:
            for a in bank.accounts.values():
                try:
                    a.month_end()
                except AccountFrozen:
                    pass
    after = bank.total()
    print("transfers ok:", bank.transfers, "attempted:", len(bank.audit))
    print("errors:", sorted(bank.errors.items()))
    print("total before", before, "after", after, "delta", after - before)
    ranked = sorted(bank.accounts.values(), key=lambda a: (a.balance, a.id), reverse=True)
    for a in ranked:
        print("  ", a, "moves:", len(a.history), "max in:", max(a.history) if a.history else 0)
    richest = max(ranked, key=lambda a: a.balance)
    print("richest:", richest.owner, repr(richest.balance))
    print("equal money:", Money(5) == Money(5), Money(3) <= Money(2), Money(7) >= Money(7))
    distinct = set()
    for a in bank.accounts.values():
        distinct.add(a.balance.cents % 7)
    print("mod7 classes:", sorted(distinct))
    for text in ["12.5", "7", "0.07", "3.999"]:
        print(text, "->", Account.parse_amount(text))
    ok_src = [t for t in bank.audit if t[3]]
    print("largest ok transfer:", max([t[2] for t in ok_src]) if ok_src else None)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
