/*
 * records._accelerator_c: the optional C accelerator, loaded by
 * records/_accelerator.py. Each part is named after its Python twin, whose
 * behaviour and messages it keeps; "C only" marks the parts that have none.
 *
 *   layout.h             records/_layout.py: seal(cls), write(cls, attributes),
 *                        the instance-dict removal on the C struct, and the
 *                        build mark that tells them what they may change
 *   sealing.h            records/_sealing.py: may_seal_here(), whether a new
 *                        class may be sealed
 *   annotations.h        records/_annotations.py: the field names of deferred
 *                        annotations (3.14+)
 *   builder.h            records/_builder.py: Record.__init_subclass__, the
 *                        common class statement in the same steps
 *   builder_helpers.h    C only: the Builder object and the Python helpers it
 *                        reads when a build first needs them
 *   record.h             records/_record.py: the Record methods marked
 *                        @c_twin (record_method)
 *   constructor.h        C only: a record's __new__ (the function that
 *                        records/_codegen.py generates, called from C), enable()
 *   members.h            C only: fields as member descriptors, and their room
 *   namedtuple.h         records/_namedtuple.py: records.namedtuple's classes
 *   namedtuple_methods.h C only: the descriptors of the methods records adds to them
 *   namedtuple_functions.h C only: their methods that are Python functions, run in C
 *
 * Rules every part follows (CONTRIBUTING, "Safety"):
 *   - a borrowed reference is never held across a call that can run Python
 *     code (a lookup, a factory, a helper, a repr, a hash): take a strong one;
 *   - no object is visible to Python before it is complete: a record's items
 *     are gathered first, and the tuple is allocated and filled without a
 *     call in between;
 *   - no process-wide state but immutable constants (interned names, a
 *     verified struct offset), made by the main interpreter: what the class
 *     builder is configured with belongs to the Builder of one Record class,
 *     and the module refuses to load in other interpreters (records then
 *     takes the pure-Python path there).
 *
 * Free-threaded builds (PEP 703; the module declares Py_MOD_GIL_NOT_USED):
 *   - what a Builder or a method reads lazily and keeps (helpers, the
 *     baseline, a bound _make, CPython's own slots) is published once with
 *     an atomic compare-and-swap or store, and read with an atomic load;
 *   - a lookup whose result is used, not only compared with an object held,
 *     takes a strong reference as it reads (_PyType_LookupRef,
 *     PyDict_GetItemRef): another thread may replace the entry meanwhile;
 *   - the layout seal's reference count stays the proof that no instance
 *     exists (sealing.h): on 3.13 with the GIL off a class is sealed only
 *     by the interpreter's only thread, and a new thread cannot run before
 *     the world stops for it, which waits for this C code; a class made once
 *     another thread has existed is immortal anyway, its count says nothing.
 *     (3.14+ counts an instance's reference to its class per thread, out of
 *     the count's sight: not supported.)
 *
 * Only CPython 3.10 to 3.15, and free-threaded 3.13: anything else refuses
 * to import (declaring, where free-threaded, that it needs no GIL: a module
 * that does not turns it on as it loads, even one that then refuses).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#if PY_VERSION_HEX < 0x030B0000
#include <frameobject.h> /* PyFrame_GetBack and f_globals, on 3.10 */
#endif

/* Free-threaded builds: 3.13, the one tested (3.14t and 3.15t are not
 * installable where the tests run; records takes the pure path there). */
#if PY_VERSION_HEX >= 0x030A0000 && PY_VERSION_HEX < 0x03100000 \
    && (!defined(Py_GIL_DISABLED) || PY_VERSION_HEX < 0x030E0000)
#define RECORDS_SUPPORTED 1
#else
#define RECORDS_SUPPORTED 0
#endif

#if RECORDS_SUPPORTED

/* Interned names, made once by the main interpreter and never replaced. */
static PyObject *str_dict;            /* "__dict__" */
static PyObject *str_new;             /* "__new__" */
static PyObject *str_fields;          /* "_fields" */
static PyObject *str_class;           /* "__class__" */
static PyObject *str_name;            /* "__name__" */
static PyObject *str_qualname;        /* "__qualname__" */
static PyObject *str_module;          /* "__module__" */
static PyObject *str_doc_attribute;   /* "__doc__" */
static PyObject *str_annotations;     /* "__annotations__" */
static PyObject *str_parameters;      /* "__parameters__" */
static PyObject *str_match_args;      /* "__match_args__" */
static PyObject *str_field_defaults;  /* "_field_defaults" */
static PyObject *str_factories;       /* "__record_factories__" */
static PyObject *str_record_built;    /* "__record_built__" */
static PyObject *str_codegen;         /* "records._codegen" */
static PyObject *str_post_init;       /* "__post_init__" */
static PyObject *str_init;            /* "__init__" */
static PyObject *str_default;         /* "default" */
static PyObject *str_default_factory; /* "default_factory" */
static PyObject *str_doc;             /* "doc" */
static PyObject *str_classvar;        /* "ClassVar" */
static PyObject *str_typing;          /* "typing" */
static PyObject *str_records_prefix;  /* "records." */
static PyObject *str_origin;          /* "__origin__" */
static PyObject *str_dot_new;         /* ".__new__" */
static PyObject *str_init_subclass;   /* "__init_subclass__" */
static PyObject *str_set_name;        /* "__set_name__" */
static PyObject *str_enum;            /* "enum" */
static PyObject *str_enum_meta;       /* "EnumMeta" */
static PyObject *str_rules;           /* "records._rules" */
static PyObject *str_annotate_func;   /* "__annotate_func__" (3.14+: deferred annotations) */
static PyObject *str_annotate;        /* "__annotate__" */
static PyObject *str_reduce;          /* "__reduce__" */
static PyObject *str_reduce_ex;       /* "__reduce_ex__" */
static PyObject *str_getnewargs;      /* "__getnewargs__" */
static PyObject *str_dill;            /* "dill._dill" */
static PyObject *str_orig_bases;      /* "__orig_bases__" */
static PyObject *str_pickling;        /* "records._pickling" */
static PyObject *str_slots;           /* "__slots__" */
static PyObject *str_make;            /* "_make" */
static PyObject *str_replace;         /* "_replace" */
static PyObject *str_dunder_replace;  /* "__replace__" */
static PyObject *str_getstate;        /* "__getstate__" */
static PyObject *str_getnewargs_ex;   /* "__getnewargs_ex__" */
static PyObject *str_copyreg;         /* "copyreg" */
static PyObject *str_newobj;          /* "__newobj__" */
static PyObject *str_dispatch_table;  /* "dispatch_table" */
static PyObject *str_namedtuple_prefix; /* "namedtuple_" */
static PyObject *str_namedtuple_module; /* "records._namedtuple." */
static PyObject *str_create_new;      /* "Create new instance of " */
static PyObject *empty_tuple;

/* Shared state, free-threaded or not (see the rules above): with the GIL
 * these are plain reads and writes. */
#ifdef Py_GIL_DISABLED
#define LOAD_PTR(field) _Py_atomic_load_ptr_acquire(&(field))
#define LOAD_INT(field) _Py_atomic_load_int_acquire(&(field))
#define STORE_INT(field, value) _Py_atomic_store_int_release(&(field), (value))
#define LOAD_SSIZE(field) _Py_atomic_load_ssize_acquire(&(field))
#define STORE_SSIZE(field, value) _Py_atomic_store_ssize_release(&(field), (value))
#define LOAD_UINTPTR(field) _Py_atomic_load_uintptr_acquire(&(field))
#define STORE_UINTPTR(field, value) _Py_atomic_store_uintptr_release(&(field), (value))
#else
#define LOAD_PTR(field) (field)
#define LOAD_INT(field) (field)
#define STORE_INT(field, value) ((field) = (value))
#define LOAD_SSIZE(field) (field)
#define STORE_SSIZE(field, value) ((field) = (value))
#define LOAD_UINTPTR(field) (field)
#define STORE_UINTPTR(field, value) ((field) = (value))
#endif

/* Make *slot point to value if it is still NULL: 1 if it now does, 0 if
 * another value was there first (the caller keeps its reference). */
static inline int
store_once(void **slot, void *value)
{
#ifdef Py_GIL_DISABLED
    void *expected = NULL;
    return _Py_atomic_compare_exchange_ptr(slot, &expected, value);
#else
    if (*slot != NULL) {
        return 0;
    }
    *slot = value;
    return 1;
#endif
}

/* Around reads of a list or dict that another thread may change meanwhile:
 * its lock on free-threaded builds (3.13+ define these; no-ops with the GIL). */
#if PY_VERSION_HEX < 0x030D0000
#define Py_BEGIN_CRITICAL_SECTION(op) {
#define Py_END_CRITICAL_SECTION() }
#endif

/* 1 if *slot went from expected to value, 0 if it held something else. */
static inline int
swap_uintptr_if(uintptr_t *slot, uintptr_t expected, uintptr_t value)
{
#ifdef Py_GIL_DISABLED
    return _Py_atomic_compare_exchange_uintptr(slot, &expected, value);
#else
    if (*slot != expected) {
        return 0;
    }
    *slot = value;
    return 1;
#endif
}

/* What type's MRO gives name: a new reference, or NULL (no error set). */
static inline PyObject *
lookup_ref(PyTypeObject *type, PyObject *name)
{
#ifdef Py_GIL_DISABLED
    return _PyType_LookupRef(type, name);
#else
    return Py_XNewRef(_PyType_Lookup(type, name));
#endif
}

/* dict[key] as PyDict_GetItemRef gives it: 1 and a new reference in
 * *result, 0 and NULL if missing, -1 with an error. */
static inline int
dict_get_ref(PyObject *dict, PyObject *key, PyObject **result)
{
#if PY_VERSION_HEX >= 0x030D0000
    return PyDict_GetItemRef(dict, key, result);
#else
    PyObject *found = PyDict_GetItemWithError(dict, key);
    *result = Py_XNewRef(found);
    return found != NULL ? 1 : (PyErr_Occurred() ? -1 : 0);
#endif
}

/* sys.modules[name] if it is a module, as imported (nothing is imported):
 * a new reference, or NULL, with an error or none. */
static PyObject *
loaded_module(PyObject *name)
{
    PyObject *module;
    if (dict_get_ref(PyImport_GetModuleDict(), name, &module) <= 0) {
        return NULL;
    }
    if (!PyModule_Check(module)) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

/* The entry name of the dict of module (where a getattr of a plain module
 * finds it): a new reference, or NULL, with an error or none. */
static PyObject *
module_entry(PyObject *module, PyObject *name)
{
    PyObject *value;
    dict_get_ref(PyModule_GetDict(module), name, &value);
    return value;
}

/* A tuple made by tp_alloc: on 3.14+ its cached hash must start unknown. */
static inline void
reset_hash_cache(PyObject *tuple)
{
#if PY_VERSION_HEX >= 0x030E0000
    ((PyTupleObject *)tuple)->ob_hash = -1;
#else
    (void)tuple;
#endif
}

/* A message from records/_rules.py: call its function name(*arguments) and
 * raise the result as exception type. Only on error paths. */
/* The module name of records ("records._rules"), borrowed from sys.modules or
 * imported now: a new reference, or NULL with an error. Imported by the
 * import system itself, not PyImport_Import, which calls the __import__ of
 * the running frame's builtins (a generated __new__'s globals have none; a
 * user's exec may have its own). With no fromlist the import returns the
 * package: the module is then taken from sys.modules. */
static PyObject *
records_module(PyObject *name)
{
    PyObject *module = PyImport_GetModule(name);
    if (module != NULL || PyErr_Occurred()) {
        return module;
    }
    PyObject *package = PyImport_ImportModuleLevelObject(name, NULL, NULL, NULL, 0);
    if (package == NULL) {
        return NULL;
    }
    Py_DECREF(package);
    module = PyImport_GetModule(name);
    if (module == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ImportError, "%U is not in sys.modules once imported", name);
    }
    return module;
}

static void
raise_rule(PyObject *type, const char *name, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    PyObject *values = Py_VaBuildValue(format, arguments);
    va_end(arguments);
    PyObject *rules = values == NULL ? NULL : records_module(str_rules);
    PyObject *function = rules == NULL ? NULL : PyObject_GetAttrString(rules, name);
    PyObject *message = function == NULL ? NULL : PyObject_Call(function, values, NULL);
    if (message != NULL) {
        PyErr_SetObject(type, message);
    }
    Py_XDECREF(message);
    Py_XDECREF(function);
    Py_XDECREF(rules);
    Py_XDECREF(values);
}

#include "members.h"
#include "annotations.h"
#include "layout.h"
#include "constructor.h"
#include "builder_helpers.h"
#include "sealing.h"
#include "builder.h"
#include "record.h"
#include "namedtuple_methods.h"
#include "namedtuple.h"
#include "namedtuple_functions.h"

static PyMethodDef module_methods[] = {
    {"helper_sources", records_helper_sources, METH_NOARGS,
     "helper_sources() -> tuple\n\nThe (name, 'module:attribute') of each helper a Builder "
     "reads: where records keeps it."},
    {"record_method", (PyCFunction)(void (*)(void))records_record_method, METH_FASTCALL,
     "record_method(Record, name) -> method_descriptor\n\nThe C twin of the Record method "
     "name marked @c_twin, as a method descriptor of the class given."},
    {"record_methods", records_record_methods, METH_O,
     "record_methods(Record) -> dict\n\nThe C twins of the Record methods marked @c_twin, "
     "by name, as method descriptors of the class given."},
    {"seal", records_seal, METH_O,
     "seal(cls) -> bool\n\nRemove the instance __dict__ CPython gave the new tuple "
     "subclass cls, whose layout records is deciding (begin_build); return whether its "
     "instances have no __dict__."},
    {"write", records_write, METH_VARARGS,
     "write(cls, attributes) -> None\n\nSet attributes on the record class cls that records "
     "is building (begin_build), straight into its dict."},
    {"begin_build", records_begin_build, METH_O,
     "begin_build(cls) -> int\n\nMark the record class cls as being built by a call of "
     "Record.__init_subclass__ that begins: seal(), prepare() and write() change only such "
     "a class. Return which call it is (0 the first, 1 a later one, 2 one inside a call under "
     "way), for end_build()."},
    {"layout_decided", records_layout_decided, METH_O,
     "layout_decided(cls) -> None\n\nThe layout of the record class cls being built is "
     "decided: seal() and prepare() no longer change it."},
    {"end_build", (PyCFunction)(void (*)(void))records_end_build, METH_FASTCALL,
     "end_build(cls, call) -> None\n\nThe call of Record.__init_subclass__ for which "
     "begin_build(cls) returned call ends."},
    {"constructor", (PyCFunction)(void (*)(void))records_constructor, METH_FASTCALL,
     "constructor(function, names, factories, marker) -> Constructor\n\n"
     "The __new__ of a record class with fields names: staticmethod(function), "
     "and what a C call to the class needs."},
    {"enable", records_enable, METH_O,
     "enable(cls) -> bool\n\nFinish the record class cls: its instances can be made, "
     "and calls to it take the C constructor its __new__ holds where they can; return "
     "whether they can."},
    {"prepare", (PyCFunction)(void (*)(void))records_prepare, METH_FASTCALL,
     "prepare(cls, Record) -> None\n\nGive the new, sealed record class cls, whose layout "
     "records is deciding (begin_build), the allocation of records, refusing instances "
     "until enable()."},
    {"building", records_building, METH_O,
     "building(cls) -> bool\n\nWhether cls is a prepared record class being built."},
    {"member", (PyCFunction)(void (*)(void))records_member, METH_FASTCALL,
     "member(cls, name, index, doc) -> member_descriptor\n\nThe accessor of field name "
     "at index, for the record class cls, whose layout has room for the item: its fields, "
     "and the next while it may grow."},
    {"field", records_field, METH_O,
     "field(accessor) -> (cls, index) | None\n\nThe class and item index of the member "
     "descriptor accessor of a record field; None for any other object."},
    {NULL, NULL, 0, NULL},
};

static int
module_exec(PyObject *module)
{
    if (PyInterpreterState_Get() != PyInterpreterState_Main()) {
        PyErr_SetString(PyExc_ImportError,
                        "records._accelerator_c loads in the main interpreter only");
        return -1;
    }
    struct {
        PyObject **slot;
        const char *text;
    } names[] = {
        {&str_dict, "__dict__"},
        {&str_new, "__new__"},
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
        {&str_record_built, "__record_built__"},
        {&str_codegen, "records._codegen"},
        {&str_post_init, "__post_init__"},
        {&str_init, "__init__"},
        {&str_default, "default"},
        {&str_default_factory, "default_factory"},
        {&str_doc, "doc"},
        {&str_classvar, "ClassVar"},
        {&str_typing, "typing"},
        {&str_records_prefix, "records."},
        {&str_origin, "__origin__"},
        {&str_dot_new, ".__new__"},
        {&str_init_subclass, "__init_subclass__"},
        {&str_set_name, "__set_name__"},
        {&str_enum, "enum"},
        {&str_enum_meta, "EnumMeta"},
        {&str_rules, "records._rules"},
        {&str_annotate_func, "__annotate_func__"},
        {&str_annotate, "__annotate__"},
        {&str_reduce, "__reduce__"},
        {&str_reduce_ex, "__reduce_ex__"},
        {&str_getnewargs, "__getnewargs__"},
        {&str_dill, "dill._dill"},
        {&str_orig_bases, "__orig_bases__"},
        {&str_pickling, "records._pickling"},
        {&str_slots, "__slots__"},
        {&str_make, "_make"},
        {&str_replace, "_replace"},
        {&str_dunder_replace, "__replace__"},
        {&str_getstate, "__getstate__"},
        {&str_getnewargs_ex, "__getnewargs_ex__"},
        {&str_copyreg, "copyreg"},
        {&str_newobj, "__newobj__"},
        {&str_dispatch_table, "dispatch_table"},
        {&str_namedtuple_prefix, "namedtuple_"},
        {&str_namedtuple_module, "records._namedtuple."},
        {&str_create_new, "Create new instance of "},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (*names[i].slot == NULL
            && (*names[i].slot = PyUnicode_InternFromString(names[i].text)) == NULL) {
            return -1;
        }
    }
#if PY_VERSION_HEX < 0x030C0000
    MemberTwinType.tp_basicsize = PyMemberDescr_Type.tp_basicsize;
#endif
    if (empty_tuple == NULL && (empty_tuple = PyTuple_New(0)) == NULL) {
        return -1;
    }
    /* The build marks (layout.h): objects no other code holds. */
    if ((mark_deciding == NULL
         && (mark_deciding = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type)) == NULL)
        || (mark_building == NULL
            && (mark_building = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type)) == NULL)) {
        return -1;
    }
    if (constructor_type_ready() < 0 || annotations_ready() < 0 || nt_methods_ready() < 0
        || nt_functions_ready() < 0
        || PyType_Ready(&BuilderType) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "Constructor", (PyObject *)&ConstructorType) < 0
        || PyModule_AddObjectRef(module, "Builder", (PyObject *)&BuilderType) < 0
        || PyModule_AddObjectRef(module, "NamedTupleMethod", (PyObject *)&NtMethodType) < 0) {
        return -1;
    }
    return 0;
}

#else /* not RECORDS_SUPPORTED */

static PyMethodDef module_methods[] = {{NULL, NULL, 0, NULL}};

static int
module_exec(PyObject *module)
{
    PyErr_SetString(PyExc_ImportError,
                    "records._accelerator_c supports CPython 3.10 to 3.15, and free-threaded "
                    "3.13");
    return -1;
}

#endif

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#endif
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#elif PY_VERSION_HEX >= 0x030D0000
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef accelerator_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "records._accelerator_c",
    .m_doc = "The optional C accelerator of records.",
    .m_size = 0,
    .m_methods = module_methods,
    .m_slots = module_slots,
};

PyMODINIT_FUNC
PyInit__accelerator_c(void)
{
    return PyModuleDef_Init(&accelerator_module);
}
