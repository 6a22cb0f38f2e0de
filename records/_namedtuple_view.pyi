# Record as typing.NamedTuple: the opt-in view for checkers that can define
# RECORDS_AS_NAMEDTUPLE (pyright's defineConstant). A stub without a runtime
# module, imported by records/__init__.pyi (see there). An assignment, not
# `from typing import NamedTuple as Record`: a stub re-exports an import only
# under its own name, and pyrefly takes an alias of NamedTuple for a named
# tuple base whichever branch it is in.
from typing import NamedTuple

Record = NamedTuple
