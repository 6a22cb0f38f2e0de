"""
Memory safety of the C class builder (``Record.__init_subclass__`` in C): it
holds what it reads while Python code runs during the build (a default's
``__class__``, a hash, a comparison), refuses what it cannot build safely,
and keeps no state of its own outside the ``Record`` class it serves. Each
route runs in a child Python (``support.child``).
"""

import pytest
from support.child import run_child
from support.platform_marks import accelerated, cpython_only

import records


@accelerated
class TestBuilderReentrancy:
    """The C class builder holds what it reads while Python code runs."""

    def test_default_deletes_annotations(self):
        """A default whose __class__ drops the class's annotations during the build."""
        output = run_child(
            """
            import gc
            from records import Record
            class Evil:
                @property
                def __class__(self):
                    for cls in Record.__subclasses__():
                        if cls.__name__ == "Target" and "__annotations__" in cls.__dict__:
                            del cls.__annotations__
                            cls.__annotations__ = {"other": int}
                    gc.collect()
                    junk = [{"k": i} for i in range(1000)]
                    return Evil
            class Target(Record):
                x: int
                y: object = Evil()
            print(Target._fields, Target(1))
            """
        )
        assert "('x', 'y')" in output

    def test_class_renamed_during_the_build(self):
        """Code that renames the class during the build cannot free the name the build uses."""
        output = run_child(
            """
            from records import Record
            def new_class():
                return Record.__subclasses__()[-1]
            class Key(str):
                def __hash__(self):
                    return hash("_fields")
                def __eq__(self, other):
                    if other == "_fields":
                        new_class().__name__ = "".join(["Fresh", "Name", str(id(self))])
                    return False
            class Default:
                @property
                def __class__(self):
                    new_class().__name__ = "Other"
                    return Default
            namespace = {"__annotations__": {"a": int, "_b": int}, "a": Default(), Key("k"): 1}
            try:
                type("P", (Record,), namespace)
            except ValueError as error:
                print(error)
            """
        )
        assert "field name '_b' starts with an underscore" in output

    def test_default_drops_the_base(self):
        """
        A default whose __class__ moves the class being built off its base
        (the record the build takes fields from): CPython refuses, as the
        class already has records' layout, and the record is built from the
        base it was declared with.
        """
        output = run_child(
            """
            import gc
            from records import Record
            class Base(Record):
                a: int
            class Other(Record):
                pass
            refused = set()
            class Evil:
                @property
                def __class__(self):
                    for cls in Base.__subclasses__():
                        try:
                            cls.__bases__ = (Other,)
                        except TypeError:
                            refused.add(cls.__name__)
                        else:
                            print("moved", cls.__name__)
                    gc.collect()
                    return Evil
            for _ in range(20):
                class Target(Base):
                    y: object = Evil()
                print([base.__name__ for base in Target.__bases__], Target._fields, Target(1, 2))
            print("refused:", sorted(refused))
            """
        )
        built = "['Base'] ('a', 'y') Target(a=1, y=2)\n"
        assert built * 20 + "refused: ['Target']\n" == output

    def test_namedtuple_code_with_closure_cells(self):
        """A records.namedtuple __new__ whose code reads cells is refused, not made without them."""
        output = run_child(
            """
            import records, records._precompiled as written
            written.CODES = written.CLOSURE_CODES  # a record's templates, with free variables
            try:
                N = records.namedtuple("N", "a b")
                print(N.__new__(N, 1, 2))
            except (SystemError, TypeError) as error:
                print("refused:", type(error).__name__)
            """
        )
        assert output.startswith("refused:")

    def test_docs_list_replaced(self):
        """The shared list of field docs replaced: a long class is refused or right, never read past."""
        output = run_child(
            """
            import records, records._accessors
            from records import Record
            class First(Record):  # the C builder reads its helpers, the docs list among them
                a: int
            records._accessors._docs = []
            names = [f"f{i}" for i in range(5000)]
            for make in (
                lambda: records.namedtuple("Long", names),
                lambda: Record.define("Long", dict.fromkeys(names, int)),
            ):
                try:
                    cls = make()
                except RuntimeError as error:
                    print("refused:", error)
                else:
                    print("made:", type(cls).__name__, cls.f4999.__doc__)
            """
        )
        made = "made: type Alias for field number 4999"
        refused = "refused: records' list of field docs was replaced"
        first, second = output.splitlines()
        assert first == (refused if records.ACCELERATED else made)
        assert second == made

    def test_class_built_while_the_helpers_load(self):
        """
        A class statement run by an import the builder starts as it reads its
        helpers (an import hook's): both classes are built, each helper kept once.
        """
        output = run_child(
            """
            import sys
            import records
            from records import Record

            class Hook:
                def find_spec(self, name, path=None, target=None):
                    if name == "records._codegen":
                        sys.meta_path.remove(self)
                        global Inner
                        class Inner(Record):
                            a: int
                            b: str = ""
                        print(Inner(1), Inner.__new__.__code__ is not None)
                    return None

            sys.meta_path.insert(0, Hook())
            class Outer(Record):
                x: int
                y: int = 2
            print(Outer(1), Outer._fields)
            # The hook's import loads the module a second time; the builder
            # keeps the helpers it read first, and both classes used them.
            codes = records._accelerator.builder.helper("codes").values()
            print(Inner.__new__.__code__ in codes, Outer.__new__.__code__ in codes)
            """
        )
        assert [
            "Inner(a=1, b='') True",
            "Outer(x=1, y=2) ('x', 'y')",
            "True True",
        ] == output.splitlines()

    def test_accessor_maker_empties_the_docs(self):
        """
        An accessor maker, read at the first build, that empties the docs list
        the builder holds: records.namedtuple refuses the class, never reads
        past the list.
        """
        output = run_child(
            """
            import records, records._accessors as accessors
            real = accessors.accessor
            def accessor(index, doc):
                accessors._docs.clear()
                return real(index, doc)
            accessors.accessor = accessor  # before the builder reads it
            try:
                records.namedtuple("P", "a b c")
                print("made")
            except RuntimeError as error:
                print("refused:", error)
            """
        )
        assert "refused: records' list of field docs was replaced\n" == output

    def test_first_class_in_code_without_builtins(self):
        """
        The first class statement of a process, run by code whose globals
        have no or other builtins: the builder imports its helpers as records
        does, never through that code's __import__.
        """
        output = run_child(
            """
            import types, records
            code = compile("class P(Record):\\n    x: int\\n", "<generated>", "exec")
            namespace = {"Record": records.Record, "__name__": "generated"}
            types.FunctionType(code, namespace)()
            print(namespace["P"](1))
            """
        )
        assert "P(x=1)\n" == output
        output = run_child(
            """
            import records
            imported = []
            def spy(name, *args, **kwargs):
                imported.append(name)
                return __import__(name, *args, **kwargs)
            builtins = {"__build_class__": __build_class__, "__import__": spy, "int": int}
            namespace = {"__builtins__": builtins, "Record": records.Record, "__name__": "generated"}
            exec("class Q(Record):\\n    y: int = 2\\n", namespace)
            print(namespace["Q"](), imported)
            """
        )
        assert "Q(y=2) []\n" == output


class TestProcessWideState:
    """What the C builder is configured with belongs to its Record, not to the process."""

    def test_reload_of_the_record_module(self):
        """After importlib.reload(records._record), both Record classes build records."""
        output = run_child(
            """
            import importlib
            import records, records._record
            from records import Record
            importlib.reload(records._record)
            class P(Record):
                x: int
            class Q(records._record.Record):
                y: int = 2
            print(P(1), Q())
            """
        )
        assert "P(x=1) Q(y=2)" in output

    def test_second_import(self):
        """Records imported again from scratch work beside the first import's."""
        output = run_child(
            """
            import sys
            import records
            First = records.Record
            for name in [n for n in sys.modules if n == "records" or n.startswith("records.")]:
                del sys.modules[name]
            import records
            class P(First):
                x: int
            class Q(records.Record):
                y: int = 2
            print(P(1), Q(), records.ACCELERATOR)
            """
        )
        assert "P(x=1) Q(y=2)" in output

    @cpython_only
    def test_subinterpreter(self):
        """A subinterpreter importing records leaves the main interpreter's records working."""
        testcapi = pytest.importorskip("_testcapi")
        if not hasattr(testcapi, "run_in_subinterp"):
            pytest.skip("this _testcapi has no run_in_subinterp")
        output = run_child(
            """
            import _testcapi
            import records
            from records import Record
            code = (
                "import records\\n"
                "class S(records.Record):\\n"
                "    x: int\\n"
                "assert S(1).x == 1, records.ACCELERATOR\\n"
            )
            assert _testcapi.run_in_subinterp(code) == 0
            class P(Record):
                x: int
            print(P(1))
            """
        )
        assert "P(x=1)" in output
