"""Tests of rpy3.lltype, the emulated low-level type system (run with
``python3 -m unittest discover -s python/tests``)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rpy3 import lltype  # noqa: E402
from rpy3.lltype import (  # noqa: E402
    Signed, Unsigned, SignedLongLong, UnsignedLongLong, Float, Char, UniChar,
    Bool, Void, Primitive, Struct, GcStruct, Array, GcArray, Ptr, FuncType,
    ForwardReference, GcForwardReference, malloc, nullptr, cast_pointer,
    typeOf)
from rpy3.rlib.rarithmetic import r_uint, r_int  # noqa: E402


def make_node_type():
    NODE = GcForwardReference()
    NODE.become(GcStruct('Node', ('v', Signed), ('next', Ptr(NODE))))
    return NODE


STR = GcStruct('rpy_string', ('hash', Signed), ('chars', Array(UniChar)))

BASE = GcStruct('Base', ('x', Signed))
MID = GcStruct('Mid', ('super', BASE), ('y', Float))
LEAF = GcStruct('Leaf', ('super', MID), ('z', Bool))
OTHER = GcStruct('Other', ('super', BASE), ('w', Signed))


class TestTypes(unittest.TestCase):
    def test_primitives(self):
        names = ["Signed", "Unsigned", "SignedLongLong", "UnsignedLongLong",
                 "Float", "Char", "UniChar", "Bool", "Void"]
        for name in names:
            T = getattr(lltype, name)
            self.assertIsInstance(T, Primitive)
            self.assertEqual(T._name, name)
            self.assertEqual(T, Primitive(name))
            self.assertEqual(hash(T), hash(Primitive(name)))
        self.assertNotEqual(Signed, Unsigned)
        self.assertEqual(repr(Signed), "Signed")
        with self.assertRaises(TypeError):
            Primitive("Int")

    def test_struct_attributes(self):
        S = Struct('S', ('a', Signed), ('b', Ptr(STR)), hints={'k': 1})
        self.assertEqual(S._name, 'S')
        self.assertEqual(S._names, ('a', 'b'))
        self.assertEqual(S._flds, {'a': Signed, 'b': Ptr(STR)})
        self.assertIs(type(S._flds), dict)
        self.assertEqual(S._gckind, 'raw')
        self.assertIsNone(S._arrayfld)
        self.assertEqual(S._hints, {'k': 1})
        self.assertTrue(S._resolved)
        self.assertEqual(STR._gckind, 'gc')
        self.assertEqual(STR._arrayfld, 'chars')
        self.assertIsInstance(STR, Struct)

    def test_struct_identity_equality(self):
        A1 = GcStruct('A', ('x', Signed))
        A2 = GcStruct('A', ('x', Signed))
        self.assertEqual(A1, A1)
        self.assertNotEqual(A1, A2)
        self.assertNotEqual(Ptr(A1), Ptr(A2))
        self.assertEqual(Ptr(A1), Ptr(A1))
        self.assertEqual(len({A1, A2, A1}), 2)

    def test_structural_equality(self):
        self.assertEqual(Array(Signed), Array(Signed))
        self.assertEqual(hash(GcArray(Float)), hash(GcArray(Float)))
        self.assertNotEqual(Array(Signed), GcArray(Signed))
        self.assertNotEqual(Array(Signed), Array(Unsigned))
        self.assertEqual(Ptr(GcArray(Signed)), Ptr(GcArray(Signed)))
        F1 = FuncType([Signed, Ptr(STR)], Bool)
        F2 = FuncType((Signed, Ptr(STR)), Bool)
        self.assertEqual(F1, F2)
        self.assertEqual(hash(F1), hash(F2))
        self.assertEqual(F1.ARGS, (Signed, Ptr(STR)))
        self.assertEqual(F1.RESULT, Bool)
        self.assertNotEqual(F1, FuncType([Signed], Bool))
        self.assertEqual(Ptr(F1).TO, F1)

    def test_array_attributes(self):
        A = GcArray(Ptr(STR))
        self.assertEqual(A.OF, Ptr(STR))
        self.assertEqual(A._gckind, 'gc')
        self.assertEqual(Array(Char)._gckind, 'raw')

    def test_immutable(self):
        with self.assertRaises(AttributeError):
            Signed._name = 'x'
        with self.assertRaises(AttributeError):
            STR._name = 'x'
        with self.assertRaises(AttributeError):
            Ptr(STR).TO = BASE

    def test_bad_struct_definitions(self):
        with self.assertRaises(TypeError):   # GcStruct not first
            GcStruct('X', ('a', Signed), ('p', BASE))
        with self.assertRaises(TypeError):   # raw Struct inlining a GcStruct
            Struct('X', ('p', BASE))
        with self.assertRaises(TypeError):   # Array not last
            GcStruct('X', ('a', Array(Signed)), ('b', Signed))
        with self.assertRaises(TypeError):   # GcArray inlined
            GcStruct('X', ('a', GcArray(Signed)))
        with self.assertRaises(TypeError):   # varsize struct not last
            GcStruct('X', ('s', Struct('V', ('a', Array(Signed)))),
                     ('b', Signed))
        with self.assertRaises(TypeError):   # function type inlined
            Struct('X', ('f', FuncType([], Void)))
        with self.assertRaises(TypeError):   # duplicate field
            Struct('X', ('a', Signed), ('a', Signed))
        with self.assertRaises(TypeError):   # not a type
            Struct('X', ('a', int))
        with self.assertRaises(TypeError):   # unresolved forward inlined
            Struct('X', ('a', ForwardReference()))
        with self.assertRaises(TypeError):
            Ptr(Signed)
        with self.assertRaises(TypeError):
            GcArray(STR)                      # varsize / GC items
        with self.assertRaises(TypeError):
            FuncType([STR], Void)

    def test_varsize_substruct(self):
        V = Struct('V', ('n', Signed), ('a', Array(Signed)))
        S = GcStruct('S', ('h', Signed), ('v', V))
        self.assertEqual(V._arrayfld, 'a')
        self.assertEqual(S._arrayfld, 'v')
        p = malloc(S, 4)
        self.assertEqual(len(p.v.a), 4)
        p.v.a[3] = 7
        self.assertEqual(p.v.a[3], 7)

    def test_forward_reference(self):
        NODE = GcForwardReference()
        self.assertFalse(NODE._resolved)
        self.assertEqual(NODE._gckind, 'gc')
        P = Ptr(NODE)
        with self.assertRaises(TypeError):
            hash(NODE)
        with self.assertRaises(TypeError):
            malloc(NODE)
        REAL = GcStruct('Node', ('v', Signed), ('next', P))
        NODE.become(REAL)
        self.assertTrue(NODE._resolved)
        self.assertIsInstance(NODE, GcStruct)
        self.assertEqual(NODE._name, 'Node')
        self.assertEqual(NODE._names, ('v', 'next'))
        self.assertEqual(NODE._flds['next'], Ptr(NODE))
        self.assertIs(NODE._flds['next'].TO, NODE)
        self.assertEqual(NODE._gckind, 'gc')
        self.assertIsNone(NODE._arrayfld)
        self.assertEqual(NODE, REAL)
        self.assertEqual(hash(NODE), hash(REAL))
        self.assertEqual(Ptr(NODE), Ptr(REAL))
        # wrong gc kind
        with self.assertRaises(TypeError):
            ForwardReference().become(GcStruct('G'))
        with self.assertRaises(TypeError):
            GcForwardReference().become(Signed)

    def test_raw_forward_reference(self):
        F = ForwardReference()
        F.become(Struct('RawNode', ('next', Ptr(F))))
        p = malloc(F, flavor='raw')
        q = malloc(F, flavor='raw')
        p.next = q
        self.assertEqual(p.next, q)


class TestRuntime(unittest.TestCase):
    def test_linked_list(self):
        NODE = make_node_type()
        head = nullptr(NODE)
        for i in range(1, 11):
            n = malloc(NODE)
            self.assertEqual(n.v, 0)
            self.assertFalse(n.next)
            n.v = i
            n.next = head
            head = n

        def total(p):
            s = 0
            while p:
                s += p.v
                p = p.next
            return s
        self.assertEqual(total(head), 55)
        self.assertEqual(typeOf(head), Ptr(NODE))
        self.assertIs(head._T, NODE)

    def test_string(self):
        p = malloc(STR, 3)
        self.assertEqual(len(p.chars), 3)
        self.assertEqual(p.hash, 0)
        self.assertEqual([p.chars[i] for i in range(3)], ['\x00'] * 3)
        for i, c in enumerate('héé'):
            p.chars[i] = c
        p.chars[2] = '\u20ac'
        self.assertEqual(''.join(p.chars[i] for i in range(len(p.chars))),
                         'hé\u20ac')
        self.assertEqual(typeOf(p.chars), Ptr(Array(UniChar)))
        with self.assertRaises(IndexError):
            p.chars[3]
        with self.assertRaises(IndexError):
            p.chars[-1] = 'a'
        with self.assertRaises(TypeError):
            p.chars[0] = 'ab'
        with self.assertRaises(TypeError):
            p.chars[0] = 65
        with self.assertRaises(TypeError):
            p.chars = p.chars
        with self.assertRaises(TypeError):
            malloc(STR)                       # varsize needs a length
        self.assertEqual(len(malloc(STR, 0).chars), 0)

    def test_gcarray(self):
        A = GcArray(Signed)
        a = malloc(A, 5)
        self.assertEqual(len(a), 5)
        self.assertEqual([a[i] for i in range(5)], [0] * 5)
        for i in range(5):
            a[i] = i * i
        self.assertEqual(a[4], 16)
        self.assertEqual(list(a), [0, 1, 4, 9, 16])
        for bad in (5, 100, -1, -5):
            with self.assertRaises(IndexError):
                a[bad]
            with self.assertRaises(IndexError):
                a[bad] = 1
        with self.assertRaises(TypeError):
            a['0']
        with self.assertRaises(TypeError):
            a[0:2]
        with self.assertRaises(TypeError):
            a[0] = 1.5
        with self.assertRaises(TypeError):
            a[0] = 2 ** 63
        a[0] = -2 ** 63
        with self.assertRaises(AttributeError):
            a.x
        with self.assertRaises(TypeError):
            malloc(A)
        with self.assertRaises(ValueError):
            malloc(A, -1)
        with self.assertRaises(TypeError):
            malloc(A, 3, flavor='raw')
        self.assertEqual(len(malloc(Array(Float), 2, flavor='raw')), 2)

    def test_array_of_structs(self):
        ENTRY = Struct('Entry', ('key', Signed), ('value', Ptr(STR)))
        A = GcArray(ENTRY)
        a = malloc(A, 2)
        e = a[1]
        self.assertEqual(typeOf(e), Ptr(ENTRY))
        e.key = 42
        self.assertEqual(a[1].key, 42)
        self.assertFalse(a[1].value)
        with self.assertRaises(TypeError):
            a[0] = e

    def test_zero_values(self):
        S = GcStruct('Z', ('s', Signed), ('u', Unsigned), ('sl', SignedLongLong),
                     ('ul', UnsignedLongLong), ('f', Float), ('c', Char),
                     ('uc', UniChar), ('b', Bool), ('v', Void),
                     ('p', Ptr(STR)), ('sub', Struct('Sub', ('k', Signed))))
        p = malloc(S)
        self.assertEqual((p.s, p.u, p.sl, p.ul), (0, 0, 0, 0))
        self.assertIs(type(p.s), int)
        self.assertIsInstance(p.u, int)
        self.assertEqual(p.f, 0.0)
        self.assertIs(type(p.f), float)
        self.assertEqual((p.c, p.uc), ('\x00', '\x00'))
        self.assertIs(p.b, False)
        self.assertIsNone(p.v)
        self.assertFalse(p.p)
        self.assertEqual(p.p, nullptr(STR))
        self.assertEqual(p.sub.k, 0)
        p.sub.k = 5
        self.assertEqual(p.sub.k, 5)
        self.assertEqual(typeOf(p.sub), Ptr(S._flds['sub']))
        with self.assertRaises(TypeError):
            malloc(S, 3)                      # fixed-size: no length
        with self.assertRaises(TypeError):
            malloc(S, flavor='raw')
        with self.assertRaises(TypeError):
            malloc(S._flds['sub'])            # raw struct, gc flavor
        self.assertEqual(malloc(S._flds['sub'], flavor='raw').k, 0)
        with self.assertRaises(TypeError):
            malloc(Signed)

    def test_type_errors_on_assignment(self):
        S = GcStruct('T', ('s', Signed), ('u', Unsigned), ('f', Float),
                     ('c', Char), ('uc', UniChar), ('b', Bool), ('v', Void),
                     ('p', Ptr(BASE)))
        p = malloc(S)
        bad = [('s', 1.0), ('s', True), ('s', 2 ** 63), ('s', -2 ** 63 - 1),
               ('s', r_uint(3)), ('s', None),
               ('u', -1), ('u', 2 ** 64), ('u', 1.0), ('u', False),
               ('f', 1), ('f', None), ('c', '\u0100'), ('c', 'ab'), ('c', 65),
               ('uc', ''), ('uc', b'a'), ('b', 1), ('b', None), ('v', 0),
               ('p', None), ('p', malloc(MID)), ('p', nullptr(MID))]
        for name, value in bad:
            with self.assertRaises(TypeError, msg=(name, value)) as cm:
                setattr(p, name, value)
            self.assertIn(repr(name), str(cm.exception))
            self.assertIn("GcStruct T", str(cm.exception))
        p.s = 2 ** 63 - 1
        p.s = r_int(-5)
        self.assertIs(type(p.s), int)
        p.u = 2 ** 64 - 1
        self.assertIsInstance(p.u, r_uint)
        self.assertEqual(p.u + 1, 0)            # r_uint arithmetic wraps
        p.u = r_uint(7)
        p.f = 2.5
        p.c = '\xff'
        p.uc = '\U0001f600'
        p.b = True
        p.v = None
        p.p = nullptr(BASE)
        p.p = malloc(BASE)
        self.assertEqual((p.s, p.u, p.f, p.c, p.uc, p.b),
                         (-5, 7, 2.5, '\xff', '\U0001f600', True))
        with self.assertRaises(AttributeError) as cm:
            p.nosuchfield
        self.assertIn('nosuchfield', str(cm.exception))
        with self.assertRaises(AttributeError):
            p.nosuchfield = 3
        with self.assertRaises(AttributeError):
            p._TYPE = Ptr(S)

    def test_null_pointer(self):
        NODE = make_node_type()
        n = nullptr(NODE)
        self.assertFalse(n)
        self.assertEqual(n._T, NODE)
        self.assertEqual(n, nullptr(NODE))
        with self.assertRaises(RuntimeError) as cm:
            n.v
        self.assertIn('null pointer', str(cm.exception))
        self.assertIn("'v'", str(cm.exception))
        with self.assertRaises(RuntimeError):
            n.v = 1
        a = nullptr(GcArray(Signed))
        with self.assertRaises(RuntimeError):
            a[0]
        with self.assertRaises(RuntimeError):
            a[0] = 1
        with self.assertRaises(RuntimeError):
            len(a)
        with self.assertRaises(RuntimeError):
            nullptr(STR).chars

    def test_parent_fields_and_casts(self):
        leaf = malloc(LEAF)
        leaf.x = 3              # a field of the grandparent, directly
        leaf.y = 1.5
        leaf.z = True
        self.assertEqual(leaf.super.super.x, 3)
        self.assertEqual(leaf.super.y, 1.5)
        leaf.super.super.x = 4
        self.assertEqual(leaf.x, 4)
        self.assertEqual(typeOf(leaf.super), Ptr(MID))

        b = cast_pointer(Ptr(BASE), leaf)
        self.assertEqual(typeOf(b), Ptr(BASE))
        self.assertEqual(b.x, 4)
        with self.assertRaises(AttributeError):
            b.y
        self.assertTrue(b == leaf)
        self.assertEqual(b, leaf.super.super)
        m = cast_pointer(Ptr(MID), b)
        self.assertEqual(m.y, 1.5)
        back = cast_pointer(Ptr(LEAF), b)
        self.assertEqual(back, leaf)
        self.assertIs(back._obj, leaf._obj)
        self.assertTrue(back.z)
        self.assertIs(cast_pointer(Ptr(LEAF), leaf)._obj, leaf._obj)
        self.assertEqual(hash(back), hash(b))

        # downcast to something the object is not
        mid = malloc(MID)
        bm = cast_pointer(Ptr(BASE), mid)
        with self.assertRaises(TypeError) as cm:
            cast_pointer(Ptr(LEAF), bm)
        self.assertIn('GcStruct Mid', str(cm.exception))
        self.assertIn('GcStruct Leaf', str(cm.exception))
        with self.assertRaises(TypeError):
            cast_pointer(Ptr(OTHER), bm)
        # unrelated types cannot be cast or compared
        with self.assertRaises(TypeError):
            cast_pointer(Ptr(OTHER), leaf)
        with self.assertRaises(TypeError):
            cast_pointer(Ptr(STR), leaf)
        with self.assertRaises(TypeError):
            leaf == malloc(OTHER)
        # null stays null, both ways
        self.assertFalse(cast_pointer(Ptr(BASE), nullptr(LEAF)))
        self.assertFalse(cast_pointer(Ptr(LEAF), nullptr(BASE)))
        self.assertEqual(cast_pointer(Ptr(BASE), nullptr(LEAF))._TYPE,
                         Ptr(BASE))

    def test_pointer_identity(self):
        a = malloc(BASE)
        b = malloc(BASE)
        self.assertEqual(a, a)
        self.assertNotEqual(a, b)
        a2 = cast_pointer(Ptr(BASE), a)
        self.assertEqual(a, a2)
        self.assertNotEqual(a, nullptr(BASE))
        self.assertTrue(a != b)
        self.assertEqual(len({a, a2, b}), 2)
        self.assertNotEqual(a, 0)
        import copy
        self.assertIs(copy.deepcopy([a])[0], a)
        self.assertIn('GcStruct Base', repr(a))

    def test_typeOf(self):
        self.assertEqual(typeOf(5), Signed)
        self.assertEqual(typeOf(r_int(5)), Signed)
        self.assertEqual(typeOf(r_uint(5)), Unsigned)
        self.assertEqual(typeOf(True), Bool)
        self.assertEqual(typeOf(1.0), Float)
        self.assertEqual(typeOf('x'), UniChar)
        self.assertEqual(typeOf(None), Void)
        self.assertEqual(typeOf(malloc(STR, 1)), Ptr(STR))
        self.assertEqual(typeOf(nullptr(GcArray(Signed))),
                         Ptr(GcArray(Signed)))
        with self.assertRaises(OverflowError):
            typeOf(2 ** 63)
        for bad in ('ab', [], object()):
            with self.assertRaises(TypeError):
                typeOf(bad)


if __name__ == '__main__':
    unittest.main()
