/*
 * records._speedups: the optional C accelerator.
 *
 * seal(cls, attributes)
 *     The instance-dict removal of records/_layout.py, done on the C struct
 *     (no ctypes, the same checks before anything is written), then the
 *     attributes written into the class dict, as _layout.seal does.
 *
 * install(cls, names, defaults, factories, factory_marker)
 *     Give a record class a C vectorcall constructor. It binds positional and
 *     keyword arguments to the fields, fills defaults and calls factories,
 *     and builds the tuple directly. Anything unusual (a wrong call, a
 *     __new__ or __init__ assigned to the class later, a metaclass) goes to
 *     type.__call__, that is, to the class's Python __new__, so errors,
 *     messages and behaviour are those of the pure-Python path.
 *
 * configure(helpers), build(cls)
 *     Record.__init_subclass__'s work for the common class statement: fields
 *     from the annotations, their checks, accessors, __new__, then seal and
 *     install. Anything less common, and every definition error but one
 *     (an invalid field name, checked by the Python function both share), is
 *     declined before the class is changed, and records/_record.py's _build
 *     does it instead: the Python path stays the reference for every message.
 *
 * record_methods(Record)
 *     _replace, _asdict, __repr__ and _make for the Record base class, as
 *     method descriptors, with the messages of the Python methods.
 *
 * Only CPython 3.10 to 3.13 with the GIL: anything else refuses to import,
 * and records uses the pure-Python path.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#if PY_VERSION_HEX >= 0x030A0000 && PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
#define RECORDS_SUPPORTED 1
#else
#define RECORDS_SUPPORTED 0
#endif

#if RECORDS_SUPPORTED

static PyObject *str_dict;        /* "__dict__" */
static PyObject *str_new;         /* "__new__" */
static PyObject *str_constructor; /* "__record_constructor__" */
static PyObject *str_fields;      /* "_fields" */
static PyObject *str_class;       /* "__class__" */
static PyObject *str_name;        /* "__name__" */
static PyObject *str_qualname;    /* "__qualname__" */
static PyObject *str_module;      /* "__module__" */
static PyObject *str_doc_attribute; /* "__doc__" */
static PyObject *str_annotations; /* "__annotations__" */
static PyObject *str_parameters;  /* "__parameters__" */
static PyObject *str_match_args;  /* "__match_args__" */
static PyObject *str_field_defaults; /* "_field_defaults" */
static PyObject *str_factories;   /* "__record_factories__" */
static PyObject *str_default;     /* "default" */
static PyObject *str_default_factory; /* "default_factory" */
static PyObject *str_doc;         /* "doc" */
static PyObject *str_classvar;    /* "ClassVar" */
static PyObject *str_func;        /* "__func__" */
static PyObject *str_dot_new;     /* ".__new__" */
static PyObject *empty_tuple;

#include "_speedups_layout.h"
#include "_speedups_constructor.h"
#include "_speedups_builder.h"
#include "_speedups_methods.h"

static PyMethodDef speedups_methods[] = {
    {"record_methods", records_record_methods, METH_O,
     "record_methods(Record) -> dict\n\nC versions of _replace, _asdict, __repr__ and "
     "_make, as descriptors of the Record class."},
    {"seal", records_seal, METH_VARARGS,
     "seal(cls, attributes) -> bool\n\nRemove the instance __dict__ CPython gave "
     "the new tuple subclass cls, set attributes on it; return whether its "
     "instances have no __dict__."},
    {"configure", records_configure, METH_O,
     "configure(helpers) -> None\n\nGive build() the Python objects it shares with "
     "records._record (a dict by name)."},
    {"init_subclass", records_init_subclass, METH_O,
     "init_subclass(Record) -> classmethod descriptor\n\nRecord.__init_subclass__ in C: "
     "build() where it can, the Python method or _build otherwise."},
    {"build", records_build, METH_O,
     "build(cls) -> bool\n\nMake the new Record subclass cls a record type, as "
     "records._record._build does; return False, having changed nothing, to leave "
     "it to _build."},
    {"install", records_install, METH_VARARGS,
     "install(cls, names, defaults, factories, factory_marker) -> bool\n\n"
     "Give the record class cls a C constructor; return whether it was given."},
    {NULL, NULL, 0, NULL},
};

static int
speedups_exec(PyObject *module)
{
    struct {
        PyObject **slot;
        const char *text;
    } names[] = {
        {&str_dict, "__dict__"},
        {&str_new, "__new__"},
        {&str_constructor, "__record_constructor__"},
        {&str_fields, "_fields"},
        {&str_class, "__class__"},
        {&str_name, "__name__"},
        {&str_qualname, "__qualname__"},
        {&str_module, "__module__"},
        {&str_doc_attribute, "__doc__"},
        {&str_annotations, "__annotations__"},
        {&str_parameters, "__parameters__"},
        {&str_match_args, "__match_args__"},
        {&str_field_defaults, "_field_defaults"},
        {&str_factories, "__record_factories__"},
        {&str_default, "default"},
        {&str_default_factory, "default_factory"},
        {&str_doc, "doc"},
        {&str_classvar, "ClassVar"},
        {&str_func, "__func__"},
        {&str_dot_new, ".__new__"},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (*names[i].slot == NULL && (*names[i].slot = PyUnicode_InternFromString(names[i].text)) == NULL) {
            return -1;
        }
    }
    if (empty_tuple == NULL && (empty_tuple = PyTuple_New(0)) == NULL) {
        return -1;
    }
    if (PyType_Ready(&ConstructorType) < 0) {
        return -1;
    }
    return 0;
}

#else /* not RECORDS_SUPPORTED */

static PyMethodDef speedups_methods[] = {{NULL, NULL, 0, NULL}};

static int
speedups_exec(PyObject *module)
{
    PyErr_SetString(PyExc_ImportError,
                    "records._speedups supports CPython 3.10 to 3.13 with the GIL");
    return -1;
}

#endif

static PyModuleDef_Slot speedups_slots[] = {
    {Py_mod_exec, speedups_exec},
    {0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "records._speedups",
    .m_doc = "The optional C accelerator of records.",
    .m_size = 0,
    .m_methods = speedups_methods,
    .m_slots = speedups_slots,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModuleDef_Init(&speedups_module);
}
