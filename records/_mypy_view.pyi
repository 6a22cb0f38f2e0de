# Record as mypy (with or without the records.mypy plugin) and zuban see it:
# a plain base class, which mypy's dataclass_transform support leaves to the
# plugin. A stub without a runtime module, imported by records/__init__.pyi
# (see there).
from records import _RecordAPI

class Record(_RecordAPI): ...
