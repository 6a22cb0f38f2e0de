# Record as type checkers other than mypy see it by default: a base class
# marked with PEP 681's dataclass_transform, so that they check the
# constructor of every record from its fields. A stub without a runtime
# module, imported by records/__init__.pyi (see there).
from typing_extensions import dataclass_transform

from records import Field, _RecordAPI, field

@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
class Record(_RecordAPI): ...
