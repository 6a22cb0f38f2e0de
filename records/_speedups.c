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

/* ------------------------------------------------------------------ seal */

static int
seal_type(PyTypeObject *cls)
{
    PyTypeObject *base = cls->tp_base;
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || base == NULL || cls->tp_dict == NULL) {
        return 0;
    }
#if PY_VERSION_HEX >= 0x030C0000
    if (cls->tp_dictoffset == 0 && !(cls->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
        return 1;
    }
    if (base->tp_dictoffset != 0 || (base->tp_flags & Py_TPFLAGS_MANAGED_DICT)) {
        return 0;
    }
    /* A managed dict lives before the object: it adds no basic size. */
    if (!(cls->tp_flags & Py_TPFLAGS_MANAGED_DICT) || cls->tp_dictoffset != -1
        || cls->tp_basicsize != base->tp_basicsize) {
        return 0;
    }
#if PY_VERSION_HEX >= 0x030D0000
    if (cls->tp_flags & Py_TPFLAGS_INLINE_VALUES) {
        return 0;
    }
#endif
#else
    if (cls->tp_dictoffset == 0) {
        return 1;
    }
    if (base->tp_dictoffset != 0) {
        return 0;
    }
    if (cls->tp_basicsize != base->tp_basicsize + (Py_ssize_t)sizeof(PyObject *)
        || cls->tp_dictoffset != -(Py_ssize_t)sizeof(PyObject *)) {
        return 0;
    }
#endif
    if (cls->tp_itemsize != base->tp_itemsize
        || cls->tp_weaklistoffset != base->tp_weaklistoffset) {
        return 0;
    }
    PyObject *descriptor = PyDict_GetItemWithError(cls->tp_dict, str_dict);
    if (descriptor == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    if (!Py_IS_TYPE(descriptor, &PyGetSetDescr_Type)
        || PyDescr_TYPE(descriptor) != cls) {
        return 0;
    }
    if (PyDict_DelItem(cls->tp_dict, str_dict) < 0) {
        return -1;
    }
#if PY_VERSION_HEX >= 0x030C0000
    cls->tp_flags &= ~Py_TPFLAGS_MANAGED_DICT;
#else
    cls->tp_basicsize -= (Py_ssize_t)sizeof(PyObject *);
#endif
    cls->tp_dictoffset = 0;
    cls->tp_getset = NULL;
    PyType_Modified(cls);
    return 1;
}

static PyObject *
records_seal(PyObject *module, PyObject *args)
{
    PyObject *cls, *attributes;
    if (!PyArg_ParseTuple(args, "O!O!:seal", &PyType_Type, &cls, &PyDict_Type, &attributes)) {
        return NULL;
    }
    int sealed = seal_type((PyTypeObject *)cls);
    if (sealed < 0) {
        return NULL;
    }
    /* Straight into the class dict, as _layout.seal does: no name here is
     * backed by a type slot that a dict write would leave stale. */
    if (PyDict_Update(((PyTypeObject *)cls)->tp_dict, attributes) < 0) {
        return NULL;
    }
    PyType_Modified((PyTypeObject *)cls);
    return PyBool_FromLong(sealed);
}

/* ----------------------------------------------------------- constructor */

typedef struct {
    PyObject_HEAD
    PyTypeObject *cls;        /* borrowed: the class owns this object */
    PyObject *names;          /* tuple of interned str */
    PyObject *defaults;       /* the defaults of the last fields, from first_default on */
    PyObject *factories;      /* NULL, or per field: its default factory, or None */
    PyObject *python_new;     /* the class's __new__ function, to detect a change */
    Py_ssize_t size;
    Py_ssize_t first_default; /* size - len(defaults) */
    unsigned int version_tag; /* cls->tp_version_tag when last validated */
} Constructor;

static void
constructor_dealloc(Constructor *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(self->names);
    Py_CLEAR(self->defaults);
    Py_CLEAR(self->factories);
    Py_CLEAR(self->python_new);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
constructor_traverse(Constructor *self, visitproc visit, void *arg)
{
    Py_VISIT(self->names);
    Py_VISIT(self->defaults);
    Py_VISIT(self->factories);
    Py_VISIT(self->python_new);
    return 0;
}

static int
constructor_clear(Constructor *self)
{
    Py_CLEAR(self->names);
    Py_CLEAR(self->defaults);
    Py_CLEAR(self->factories);
    Py_CLEAR(self->python_new);
    return 0;
}

static PyTypeObject ConstructorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._speedups.Constructor",
    .tp_basicsize = sizeof(Constructor),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The C constructor data of one record class.",
    .tp_dealloc = (destructor)constructor_dealloc,
    .tp_traverse = (traverseproc)constructor_traverse,
    .tp_clear = (inquiry)constructor_clear,
};

/* The class still builds its instances as when install() ran: same
 * __new__ function, object's __init__. Refreshes the saved version tag. */
static int
constructor_still_valid(Constructor *self, PyTypeObject *cls)
{
    if (cls->tp_init != PyBaseObject_Type.tp_init) {
        return 0;
    }
    PyObject *new = _PyType_Lookup(cls, str_new); /* borrowed; assigns a version tag */
    if (new == NULL || !Py_IS_TYPE(new, &PyStaticMethod_Type)) {
        return 0;
    }
    PyObject *function = PyObject_GetAttr(new, str_func);
    if (function == NULL) {
        PyErr_Clear();
        return 0;
    }
    int same = function == self->python_new;
    Py_DECREF(function);
    if (same) {
        self->version_tag = cls->tp_version_tag;
    }
    return same;
}

/* type.__call__ with vectorcall arguments: the Python path, for everything
 * the fast path does not handle. */
static PyObject *
call_through_type(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *positional = PyTuple_New(nargs);
    if (positional == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(positional, i, Py_NewRef(args[i]));
    }
    PyObject *keywords = NULL;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        keywords = PyDict_New();
        if (keywords == NULL) {
            Py_DECREF(positional);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
            if (PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                Py_DECREF(positional);
                Py_DECREF(keywords);
                return NULL;
            }
        }
    }
    PyObject *result = PyType_Type.tp_call(cls, positional, keywords);
    Py_DECREF(positional);
    Py_XDECREF(keywords);
    return result;
}

static Py_ssize_t
field_index(Constructor *self, PyObject *name)
{
    Py_ssize_t size = self->size;
    for (Py_ssize_t i = 0; i < size; i++) {
        if (PyTuple_GET_ITEM(self->names, i) == name) {
            return i;
        }
    }
    if (!PyUnicode_Check(name)) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        int equal = PyUnicode_Compare(PyTuple_GET_ITEM(self->names, i), name) == 0;
        if (equal) {
            return i;
        }
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
    }
    return -1;
}

static PyObject *
record_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyTypeObject *cls = (PyTypeObject *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *found = PyDict_GetItemWithError(cls->tp_dict, str_constructor);
    if (found == NULL || !Py_IS_TYPE(found, &ConstructorType)
        || ((Constructor *)found)->cls != cls) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        return call_through_type(callable, args, nargs, kwnames);
    }
    Constructor *self = (Constructor *)found;
    if (self->version_tag == 0 || cls->tp_version_tag != self->version_tag) {
        if (!constructor_still_valid(self, cls)) {
            return call_through_type(callable, args, nargs, kwnames);
        }
    }
    Py_ssize_t size = self->size;
    if (nargs > size) {
        return call_through_type(callable, args, nargs, kwnames);
    }
    PyObject *record = cls->tp_alloc(cls, size);
    if (record == NULL) {
        return NULL;
    }
    PyObject **items = ((PyTupleObject *)record)->ob_item;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        items[i] = Py_NewRef(args[i]);
    }
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t k = 0; k < nkw; k++) {
            Py_ssize_t index = field_index(self, PyTuple_GET_ITEM(kwnames, k));
            if (index < 0 || items[index] != NULL) {
                goto slow;  /* unknown or repeated: the Python path words the error */
            }
            items[index] = Py_NewRef(args[nargs + k]);
        }
    }
    for (Py_ssize_t i = nargs; i < size; i++) {
        if (items[i] != NULL) {
            continue;
        }
        if (i < self->first_default) {
            goto slow;  /* a missing argument */
        }
        /* Defaults and factories belong to the last fields only, so once one
         * is needed, no required field is left to miss: a factory never runs
         * before a call error. */
        PyObject *factory = self->factories ? PyTuple_GET_ITEM(self->factories, i) : Py_None;
        if (factory != Py_None) {
            PyObject *value = PyObject_CallNoArgs(factory);
            if (value == NULL) {
                Py_DECREF(record);
                return NULL;
            }
            items[i] = value;
        }
        else {
            items[i] = Py_NewRef(PyTuple_GET_ITEM(self->defaults, i - self->first_default));
        }
    }
    return record;

slow:
    Py_DECREF(record);
    return call_through_type(callable, args, nargs, kwnames);
}

/* Give cls the C constructor for fields names, whose last len(defaults)
 * fields have defaults; a default that is marker stands for the factory
 * factories[index] (and for itself if there is none, as in the Python
 * __new__). Returns 1 if installed, 0 if cls must keep the Python path, -1
 * with an error. */
static int
install_constructor(PyTypeObject *cls, PyObject *names, PyObject *defaults, PyObject *factories,
                    PyObject *marker, PyObject *python_new)
{
    Py_ssize_t size = PyTuple_GET_SIZE(names);
    Py_ssize_t ndefaults = PyTuple_GET_SIZE(defaults);
    /* Only classes called through type.__call__ with object's __init__, whose
     * instances are tuples; anything else keeps the Python path. */
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || !PyType_IsSubtype(cls, &PyTuple_Type)
        || Py_TYPE(cls)->tp_call != PyType_Type.tp_call
        || cls->tp_init != PyBaseObject_Type.tp_init || ndefaults > size) {
        return 0;
    }
    /* Keyword lookup compares pointers first: the names must be interned.
     * Class bodies intern them already, so the tuple is usually shared. */
    PyObject *interned = Py_NewRef(names);
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_CheckExact(name)) {
            Py_DECREF(interned);
            PyErr_SetString(PyExc_TypeError, "field names must be str");
            return -1;
        }
        if (!PyUnicode_CHECK_INTERNED(name)) {
            if (interned == names) {
                Py_SETREF(interned, PyTuple_New(size));
                if (interned == NULL) {
                    return -1;
                }
                for (Py_ssize_t j = 0; j < size; j++) {
                    PyTuple_SET_ITEM(interned, j, Py_NewRef(PyTuple_GET_ITEM(names, j)));
                }
            }
            Py_INCREF(name);
            PyUnicode_InternInPlace(&name);
            Py_SETREF(((PyTupleObject *)interned)->ob_item[i], name);
        }
    }
    Py_ssize_t first_default = size - ndefaults;
    PyObject *per_field = NULL;
    for (Py_ssize_t i = first_default; i < size; i++) {
        if (PyTuple_GET_ITEM(defaults, i - first_default) != marker) {
            continue;
        }
        PyObject *key = PyLong_FromSsize_t(i);
        PyObject *factory = key == NULL ? NULL : PyDict_GetItemWithError(factories, key);
        Py_XDECREF(key);
        if (factory == NULL) {
            if (PyErr_Occurred()) {
                goto error;
            }
            continue;
        }
        if (per_field == NULL) {
            if ((per_field = PyTuple_New(size)) == NULL) {
                goto error;
            }
            for (Py_ssize_t j = 0; j < size; j++) {
                PyTuple_SET_ITEM(per_field, j, Py_NewRef(Py_None));
            }
        }
        Py_SETREF(((PyTupleObject *)per_field)->ob_item[i], Py_NewRef(factory));
    }
    Constructor *self = PyObject_GC_New(Constructor, &ConstructorType);
    if (self == NULL) {
        goto error;
    }
    self->cls = cls;
    self->size = size;
    self->first_default = first_default;
    self->version_tag = 0;
    self->names = interned;
    self->defaults = Py_NewRef(defaults);
    self->factories = per_field;
    self->python_new = Py_NewRef(python_new);
    PyObject_GC_Track(self);
    if (PyDict_SetItem(cls->tp_dict, str_constructor, (PyObject *)self) < 0) {
        Py_DECREF(self);
        return -1;
    }
    Py_DECREF(self);
    PyType_Modified(cls);
    cls->tp_vectorcall = record_vectorcall;
    return 1;

error:
    Py_DECREF(interned);
    Py_XDECREF(per_field);
    return -1;
}

static PyObject *
records_install(PyObject *module, PyObject *args)
{
    PyObject *cls, *names, *defaults, *factories, *marker;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O:install", &PyType_Type, &cls,
                          &PyTuple_Type, &names, &PyTuple_Type, &defaults,
                          &PyDict_Type, &factories, &marker)) {
        return NULL;
    }
    PyObject *new = _PyType_Lookup((PyTypeObject *)cls, str_new);
    if (new == NULL || !Py_IS_TYPE(new, &PyStaticMethod_Type)) {
        Py_RETURN_FALSE;
    }
    PyObject *function = PyObject_GetAttr(new, str_func);
    if (function == NULL) {
        return NULL;
    }
    int installed = install_constructor((PyTypeObject *)cls, names, defaults, factories, marker,
                                        function);
    Py_DECREF(function);
    return installed < 0 ? NULL : PyBool_FromLong(installed);
}

/* ------------------------------------------------------------ class building */

/* What build() uses from the Python side, given once by configure(). */
static struct {
    PyObject *record;           /* the Record class */
    PyObject *init_subclass;    /* Record.__init_subclass__'s Python function */
    PyObject *build;            /* _record._build(cls): the reference path */
    PyObject *check_field_name; /* _record._check_field_name(record, name): raises */
    PyObject *keywords;         /* _rules.KEYWORDS */
    PyObject *is_classvar;      /* _compat.is_classvar(annotation) */
    PyObject *field_type;       /* _fields.Field */
    PyObject *missing;          /* _fields.MISSING */
    PyObject *factory_marker;   /* _fields.FACTORY */
    PyObject *mutable_types;    /* _rules.MUTABLE_DEFAULT_TYPES */
    PyObject *accessor;         /* _accessors.make_accessor(index, doc) */
    PyObject *docs;             /* _accessors._default_docs: a list that only grows */
    PyObject *extend_docs;      /* _accessors.default_docs(count) */
    PyObject *field_types;      /* _record._field_types(source) */
    PyObject *codes;            /* _codegen._codes: (names, factory indices) -> code */
    PyObject *base_globals;     /* _codegen.BASE_GLOBALS */
    PyObject *make_constructor; /* _codegen.make_constructor(names, defaults, factories) */
} builder;

static PyObject *
records_configure(PyObject *module, PyObject *helpers)
{
    struct {
        const char *name;
        PyObject **slot;
        PyTypeObject *type; /* NULL: any object */
    } table[] = {
        {"Record", &builder.record, &PyType_Type},
        {"init_subclass", &builder.init_subclass, NULL},
        {"build", &builder.build, NULL},
        {"check_field_name", &builder.check_field_name, NULL},
        {"keywords", &builder.keywords, &PyFrozenSet_Type},
        {"is_classvar", &builder.is_classvar, NULL},
        {"Field", &builder.field_type, &PyType_Type},
        {"MISSING", &builder.missing, NULL},
        {"FACTORY", &builder.factory_marker, NULL},
        {"mutable_types", &builder.mutable_types, &PyTuple_Type},
        {"accessor", &builder.accessor, NULL},
        {"docs", &builder.docs, &PyList_Type},
        {"extend_docs", &builder.extend_docs, NULL},
        {"field_types", &builder.field_types, NULL},
        {"codes", &builder.codes, &PyDict_Type},
        {"base_globals", &builder.base_globals, &PyDict_Type},
        {"make_constructor", &builder.make_constructor, NULL},
    };
    const size_t count = sizeof(table) / sizeof(table[0]);
    if (!PyDict_Check(helpers)) {
        PyErr_SetString(PyExc_TypeError, "configure() takes a dict of helpers");
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        PyObject *value = PyDict_GetItemString(helpers, table[i].name);
        if (value == NULL || (table[i].type != NULL && !PyObject_TypeCheck(value, table[i].type))) {
            PyErr_Format(PyExc_TypeError, "configure() needs %s%s%s", table[i].name,
                         table[i].type ? " of type " : "",
                         table[i].type ? table[i].type->tp_name : "");
            return NULL;
        }
    }
    for (size_t i = 0; i < count; i++) {
        Py_XSETREF(*table[i].slot, Py_NewRef(PyDict_GetItemString(helpers, table[i].name)));
    }
    Py_RETURN_NONE;
}

/* What build_record() did with a class. Declined means unchanged: the Python
 * path is to build it. */
enum { BUILD_FAILED = -1, BUILD_DECLINED = 0, BUILD_DONE = 1 };

/* What build_record() computes before it changes the class. */
typedef struct {
    PyObject *names;             /* every field name, inherited first */
    PyObject *own;               /* the names this class declares */
    PyObject *accessors;         /* one per own name */
    PyObject *defaults;          /* _field_defaults */
    PyObject *new_defaults;      /* the constructor's defaults: a list, then a tuple */
    PyObject *factories;         /* the constructor's factories, by field index */
    PyObject *factories_by_name; /* __record_factories__, when there are factories */
    PyObject *new;               /* staticmethod __new__, unless the body has one */
    PyObject *doc;               /* the default __doc__, unless the body has one */
} Parts;

static void
parts_clear(Parts *parts)
{
    Py_CLEAR(parts->names);
    Py_CLEAR(parts->own);
    Py_CLEAR(parts->accessors);
    Py_CLEAR(parts->defaults);
    Py_CLEAR(parts->new_defaults);
    Py_CLEAR(parts->factories);
    Py_CLEAR(parts->factories_by_name);
    Py_CLEAR(parts->new);
    Py_CLEAR(parts->doc);
}

/* 1 if annotation declares a ClassVar or may: strings are not parsed here,
 * and any that mention ClassVar go to the Python path. */
static int
may_be_classvar(PyObject *annotation)
{
    if (Py_IS_TYPE(annotation, &PyType_Type)) {
        return 0;
    }
    if (PyUnicode_CheckExact(annotation)) {
        Py_ssize_t found = PyUnicode_Find(annotation, str_classvar, 0,
                                          PyUnicode_GET_LENGTH(annotation), 1);
        return found == -2 ? -1 : found >= 0;
    }
    PyObject *result = PyObject_CallOneArg(builder.is_classvar, annotation);
    if (result == NULL) {
        return -1;
    }
    int truth = PyObject_IsTrue(result);
    Py_DECREF(result);
    return truth;
}

/* 1 if name passes every check of _rules.invalid_name_message, 0 if it may
 * not: then _record._check_field_name decides, and words the error. */
static int
plainly_valid_name(PyObject *name)
{
    if (!PyUnicode_CheckExact(name)) {
        return 0;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(name) < 0) {
        return -1;
    }
#endif
    if (PyUnicode_GET_LENGTH(name) == 0
        || PyUnicode_READ_CHAR(name, 0) == '_' || PyUnicode_IsIdentifier(name) != 1) {
        return 0;
    }
    int keyword = PySet_Contains(builder.keywords, name);
    return keyword < 0 ? -1 : !keyword;
}

/* isinstance(value, MUTABLE_DEFAULT_TYPES), without the call for the
 * immutable builtins that most defaults are. */
static int
is_mutable_default(PyObject *value)
{
    PyTypeObject *type = Py_TYPE(value);
    if (value == Py_None || type == &PyLong_Type || type == &PyUnicode_Type
        || type == &PyFloat_Type || type == &PyBool_Type || type == &PyTuple_Type
        || type == &PyBytes_Type || type == &PyFrozenSet_Type) {
        return 0;
    }
    return PyObject_IsInstance(value, builder.mutable_types);
}

/* make_accessor(index, doc). CPython's _tuplegetter is a type whose
 * __init__ is object's: its tp_new alone makes it, with less call overhead,
 * from an argument tuple (*scratch) reused while no one else holds it. */
static PyObject *
make_accessor(PyObject **scratch, PyObject *index, PyObject *doc)
{
    PyObject *maker = builder.accessor;
    if (PyType_Check(maker) && ((PyTypeObject *)maker)->tp_new != NULL
        && ((PyTypeObject *)maker)->tp_init == PyBaseObject_Type.tp_init) {
        if (*scratch == NULL || Py_REFCNT(*scratch) != 1) {
            Py_XSETREF(*scratch, PyTuple_New(2));
            if (*scratch == NULL) {
                return NULL;
            }
        }
        PyObject **items = ((PyTupleObject *)*scratch)->ob_item;
        Py_XSETREF(items[0], Py_NewRef(index));
        Py_XSETREF(items[1], Py_NewRef(doc));
        return ((PyTypeObject *)maker)->tp_new((PyTypeObject *)maker, *scratch, NULL);
    }
    PyObject *arguments[] = {index, doc};
    return PyObject_Vectorcall(maker, arguments, 2, NULL);
}

/* A field's default given as field(...), as _record._add_field_default
 * takes it. *has_default: whether a field so far has a default; *doc: the
 * accessor's docstring, replaced by the field's own if it has one. */
static int
add_field_spec(Parts *parts, PyObject *spec, PyObject *name, Py_ssize_t index, int *has_default,
               PyObject **doc)
{
    int outcome = BUILD_FAILED;
    PyObject *key = NULL, *field_doc = NULL;
    PyObject *default_value = PyObject_GetAttr(spec, str_default);
    PyObject *factory = PyObject_GetAttr(spec, str_default_factory);
    if (default_value == NULL || factory == NULL) {
        goto done;
    }
    if (factory != builder.missing) {
        if (default_value != builder.missing || !PyCallable_Check(factory)) {
            outcome = BUILD_DECLINED;
            goto done;
        }
        if ((key = PyLong_FromSsize_t(index)) == NULL
            || PyDict_SetItem(parts->factories, key, factory) < 0
            || PyList_Append(parts->new_defaults, builder.factory_marker) < 0) {
            goto done;
        }
        *has_default = 1;
    }
    else if (default_value != builder.missing) {
        int mutable = is_mutable_default(default_value);
        if (mutable != 0) {
            outcome = mutable < 0 ? BUILD_FAILED : BUILD_DECLINED;
            goto done;
        }
        if (PyDict_SetItem(parts->defaults, name, default_value) < 0
            || PyList_Append(parts->new_defaults, default_value) < 0) {
            goto done;
        }
        *has_default = 1;
    }
    else if (*has_default) {
        outcome = BUILD_DECLINED; /* a field without a default after one with */
        goto done;
    }
    if ((field_doc = PyObject_GetAttr(spec, str_doc)) == NULL) {
        goto done;
    }
    if (field_doc != Py_None) {
        Py_SETREF(*doc, Py_NewRef(field_doc));
    }
    outcome = BUILD_DONE;

done:
    Py_XDECREF(field_doc);
    Py_XDECREF(key);
    Py_XDECREF(default_value);
    Py_XDECREF(factory);
    return outcome;
}

/* The fields cls declares in annotations, checked and with their accessors,
 * as the loop in _record._build makes them. */
static int
collect_fields(Parts *parts, PyTypeObject *cls, PyTypeObject *source, PyObject *inherited,
               PyObject *annotations)
{
    PyObject *inherited_defaults = _PyType_Lookup(source, str_field_defaults);
    PyObject *inherited_factories = _PyType_Lookup(source, str_factories);
    Py_ssize_t ninherited = PyTuple_GET_SIZE(inherited);
    Py_ssize_t count = PyDict_GET_SIZE(annotations);
    if (inherited_defaults == NULL || !PyDict_CheckExact(inherited_defaults)
        || inherited_factories == NULL || !PyDict_CheckExact(inherited_factories)
        || PyDict_GET_SIZE(inherited_factories) != 0
        || (PyDict_GET_SIZE(inherited_defaults) != 0 && ninherited == 0)) {
        return BUILD_DECLINED;
    }
    int has_default = PyDict_GET_SIZE(inherited_defaults) != 0;
    parts->defaults = has_default ? PyDict_Copy(inherited_defaults) : PyDict_New();
    if (parts->defaults == NULL || (parts->new_defaults = PyList_New(0)) == NULL
        || (parts->own = PyTuple_New(count)) == NULL
        || (parts->accessors = PyTuple_New(count)) == NULL) {
        return BUILD_FAILED;
    }
    for (Py_ssize_t i = 0; has_default && i < ninherited; i++) {
        PyObject *value = PyDict_GetItemWithError(inherited_defaults, PyTuple_GET_ITEM(inherited, i));
        if (value == NULL ? PyErr_Occurred() != NULL
                          : PyList_Append(parts->new_defaults, value) < 0) {
            return BUILD_FAILED;
        }
    }
    if (PyList_GET_SIZE(builder.docs) < ninherited + count) {
        PyObject *extended = PyObject_CallFunction(builder.extend_docs, "n", ninherited + count);
        if (extended == NULL) {
            return BUILD_FAILED;
        }
        Py_DECREF(extended);
    }
    PyObject *namespace = cls->tp_dict;
    PyObject *record_name = ((PyHeapTypeObject *)cls)->ht_name;
    PyObject *name = NULL, *value = NULL, *doc = NULL, *index_object = NULL, *arguments = NULL;
    int outcome = BUILD_FAILED;
    Py_ssize_t position = 0, field = 0;
    PyObject *key, *annotation;
    while (PyDict_Next(annotations, &position, &key, &annotation)) {
        Py_ssize_t index = ninherited + field;
        /* The Python calls below could change the dict or the docs list:
         * then the Python path words what happens. */
        if (PyDict_GET_SIZE(annotations) != count || field >= count
            || PyList_GET_SIZE(builder.docs) <= index) {
            outcome = BUILD_DECLINED;
            goto done;
        }
        Py_XSETREF(name, Py_NewRef(key));
        Py_INCREF(annotation);
        int classvar = may_be_classvar(annotation);
        Py_DECREF(annotation);
        if (classvar != 0 || !PyUnicode_CheckExact(name)) {
            outcome = classvar < 0 ? BUILD_FAILED : BUILD_DECLINED;
            goto done;
        }
        int known = plainly_valid_name(name);
        if (known < 0) {
            goto done;
        }
        if (!known) {
            PyObject *checked = PyObject_CallFunctionObjArgs(builder.check_field_name,
                                                             record_name, name, NULL);
            if (checked == NULL) {
                goto done; /* the error _build raises for this field */
            }
            Py_DECREF(checked);
        }
        int redeclared = PySequence_Contains(inherited, name);
        if (redeclared != 0) {
            outcome = redeclared < 0 ? BUILD_FAILED : BUILD_DECLINED;
            goto done;
        }
        Py_XSETREF(doc, Py_NewRef(PyList_GET_ITEM(builder.docs, index)));
        Py_XSETREF(value, Py_XNewRef(PyDict_GetItemWithError(namespace, name)));
        if (value == NULL) {
            if (PyErr_Occurred()) {
                goto done;
            }
            if (has_default) {
                outcome = BUILD_DECLINED; /* a field without a default after one with */
                goto done;
            }
        }
        else if (!Py_IS_TYPE(value, (PyTypeObject *)builder.field_type)) {
            int mutable = is_mutable_default(value);
            if (mutable != 0) {
                outcome = mutable < 0 ? BUILD_FAILED : BUILD_DECLINED;
                goto done;
            }
            if (PyDict_SetItem(parts->defaults, name, value) < 0
                || PyList_Append(parts->new_defaults, value) < 0) {
                goto done;
            }
            has_default = 1;
        }
        else {
            int added = add_field_spec(parts, value, name, index, &has_default, &doc);
            if (added != BUILD_DONE) {
                outcome = added;
                goto done;
            }
        }
        Py_XSETREF(index_object, PyLong_FromSsize_t(index));
        if (index_object == NULL) {
            goto done;
        }
        PyObject *accessor = make_accessor(&arguments, index_object, doc);
        if (accessor == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(parts->accessors, field, accessor);
        PyTuple_SET_ITEM(parts->own, field, Py_NewRef(name));
        field++;
    }
    outcome = field == count ? BUILD_DONE : BUILD_DECLINED;

done:
    Py_XDECREF(name);
    Py_XDECREF(value);
    Py_XDECREF(doc);
    Py_XDECREF(index_object);
    Py_XDECREF(arguments);
    return outcome;
}

/* The generated __new__ of a record without factories, from the cached code
 * for its names; NULL without an error on a cache miss. */
static PyObject *
cached_constructor(PyObject *names)
{
    PyObject *key = PyTuple_Pack(2, names, empty_tuple);
    if (key == NULL) {
        return NULL;
    }
    PyObject *code = PyDict_GetItemWithError(builder.codes, key); /* borrowed */
    Py_DECREF(key);
    if (code == NULL || !PyCode_Check(code)) {
        return NULL;
    }
    return PyFunction_New(code, builder.base_globals);
}

/* The staticmethod __new__ of cls, as _record._build makes it. */
static PyObject *
make_new(Parts *parts, PyTypeObject *cls, PyTypeObject *source, PyObject *annotations,
         Py_ssize_t ninherited)
{
    PyObject *function = NULL, *value = NULL, *types = NULL, *result = NULL;
    PyObject *defaults = PyTuple_GET_SIZE(parts->new_defaults) ? parts->new_defaults : Py_None;
    if (PyDict_GET_SIZE(parts->factories) == 0) {
        function = cached_constructor(parts->names);
        if (function == NULL && PyErr_Occurred()) {
            return NULL;
        }
        if (function != NULL && defaults != Py_None && PyFunction_SetDefaults(function, defaults) < 0) {
            goto done;
        }
    }
    if (function == NULL) {
        function = PyObject_CallFunctionObjArgs(builder.make_constructor, parts->names, defaults,
                                                parts->factories, NULL);
        if (function == NULL) {
            return NULL;
        }
    }
    value = PyUnicode_Concat(((PyHeapTypeObject *)cls)->ht_qualname, str_dot_new);
    if (value == NULL || PyObject_SetAttr(function, str_qualname, value) < 0) {
        goto done;
    }
    /* cls.__module__ of a heap type is its dict's entry */
    PyObject *module = PyDict_GetItemWithError(cls->tp_dict, str_module);
    if (module == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetObject(PyExc_AttributeError, str_module);
        }
        goto done;
    }
    if (PyObject_SetAttr(function, str_module, module) < 0) {
        goto done;
    }
    if (ninherited) {
        types = PyObject_CallOneArg(builder.field_types, (PyObject *)source);
        if (types == NULL) {
            goto done;
        }
        if (!PyDict_Check(types)) {
            PyErr_SetString(PyExc_TypeError, "_field_types() must return a dict");
            goto done;
        }
        if (PyDict_Update(types, annotations) < 0) {
            goto done;
        }
    }
    else if ((types = PyDict_Copy(annotations)) == NULL) {
        goto done;
    }
    if (PyFunction_SetAnnotations(function, types) < 0) {
        goto done;
    }
    result = PyStaticMethod_New(function);

done:
    Py_XDECREF(types);
    Py_XDECREF(value);
    Py_XDECREF(function);
    return result;
}

/* "Point(x, y)": the __doc__ of a record class whose body has none. */
static PyObject *
default_class_doc(PyTypeObject *cls, PyObject *names)
{
    PyObject *record_name = ((PyHeapTypeObject *)cls)->ht_name;
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    Py_ssize_t length = PyUnicode_GET_LENGTH(record_name) + 2 + (count ? 2 * (count - 1) : 0);
    Py_UCS4 widest = PyUnicode_MAX_CHAR_VALUE(record_name);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        length += PyUnicode_GET_LENGTH(name);
        widest = Py_MAX(widest, PyUnicode_MAX_CHAR_VALUE(name));
    }
    PyObject *doc = PyUnicode_New(length, widest);
    if (doc == NULL) {
        return NULL;
    }
    Py_ssize_t at = PyUnicode_GET_LENGTH(record_name);
    PyUnicode_CopyCharacters(doc, 0, record_name, 0, at);
    PyUnicode_WriteChar(doc, at++, '(');
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (i > 0) {
            PyUnicode_WriteChar(doc, at++, ',');
            PyUnicode_WriteChar(doc, at++, ' ');
        }
        PyUnicode_CopyCharacters(doc, at, name, 0, PyUnicode_GET_LENGTH(name));
        at += PyUnicode_GET_LENGTH(name);
    }
    PyUnicode_WriteChar(doc, at, ')');
    return doc;
}

/* Everything _record._build computes for cls, into parts. */
static int
compute_parts(Parts *parts, PyTypeObject *cls)
{
    PyObject *namespace = cls->tp_dict;
    PyObject *bases = cls->tp_bases;
    if (Py_TYPE(cls) != &PyType_Type || !(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || namespace == NULL
        || bases == NULL || PyTuple_GET_SIZE(bases) != 1) {
        return BUILD_DECLINED;
    }
    /* Errors in the body, and generics (their __class_getitem__). */
    PyObject *declined_names[] = {str_fields, str_field_defaults, str_factories, str_parameters};
    for (size_t i = 0; i < sizeof(declined_names) / sizeof(declined_names[0]); i++) {
        int found = PyDict_Contains(namespace, declined_names[i]);
        if (found != 0) {
            return found < 0 ? BUILD_FAILED : BUILD_DECLINED;
        }
    }
    PyTypeObject *source = (PyTypeObject *)PyTuple_GET_ITEM(bases, 0);
    if (!(source->tp_flags & Py_TPFLAGS_HEAPTYPE) || source->tp_dict == NULL) {
        return BUILD_DECLINED; /* not a record: Record and its subclasses are heap types */
    }
    PyObject *inherited = PyDict_GetItemWithError(source->tp_dict, str_fields);
    if (inherited == NULL || !PyTuple_CheckExact(inherited)) {
        return PyErr_Occurred() ? BUILD_FAILED : BUILD_DECLINED;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(inherited); i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(inherited, i))) {
            return BUILD_DECLINED;
        }
    }
    PyObject *annotations = PyDict_GetItemWithError(namespace, str_annotations);
    if (annotations == NULL && PyErr_Occurred()) {
        return BUILD_FAILED;
    }
    if (annotations != NULL && PyDict_CheckExact(annotations) && PyDict_GET_SIZE(annotations)) {
        int collected = collect_fields(parts, cls, source, inherited, annotations);
        if (collected != BUILD_DONE) {
            return collected;
        }
        Py_ssize_t ninherited = PyTuple_GET_SIZE(inherited);
        parts->names = ninherited ? PySequence_Concat(inherited, parts->own) : Py_NewRef(parts->own);
        if (parts->names == NULL) {
            return BUILD_FAILED;
        }
        Py_SETREF(parts->new_defaults, PyList_AsTuple(parts->new_defaults));
        if (parts->new_defaults == NULL) {
            return BUILD_FAILED;
        }
        if (PyDict_GET_SIZE(parts->factories)) {
            if ((parts->factories_by_name = PyDict_New()) == NULL) {
                return BUILD_FAILED;
            }
            Py_ssize_t position = 0;
            PyObject *index, *factory;
            while (PyDict_Next(parts->factories, &position, &index, &factory)) {
                PyObject *name = PyTuple_GET_ITEM(parts->names, PyLong_AsSsize_t(index));
                if (PyDict_SetItem(parts->factories_by_name, name, factory) < 0) {
                    return BUILD_FAILED;
                }
            }
        }
        int found = PyDict_Contains(namespace, str_new);
        if (found < 0) {
            return BUILD_FAILED;
        }
        if (!found
            && (parts->new = make_new(parts, cls, source, annotations, ninherited)) == NULL) {
            return BUILD_FAILED;
        }
    }
    else {
        parts->names = Py_NewRef(inherited);
    }
    PyObject *doc = PyDict_GetItemWithError(namespace, str_doc_attribute);
    if (doc == NULL && PyErr_Occurred()) {
        return BUILD_FAILED;
    }
    if ((doc == NULL || doc == Py_None)
        && (parts->doc = default_class_doc(cls, parts->names)) == NULL) {
        return BUILD_FAILED;
    }
    return BUILD_DONE;
}

/* Write parts into the sealed class: the attributes _record._build gives
 * seal(), in its order, then the C constructor. */
static int
write_parts(Parts *parts, PyTypeObject *cls)
{
    PyObject *namespace = cls->tp_dict;
    if (parts->own != NULL) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(parts->own); i++) {
            if (PyDict_SetItem(namespace, PyTuple_GET_ITEM(parts->own, i),
                               PyTuple_GET_ITEM(parts->accessors, i)) < 0) {
                return -1;
            }
        }
        if (PyDict_SetItem(namespace, str_fields, parts->names) < 0
            || PyDict_SetItem(namespace, str_field_defaults, parts->defaults) < 0
            || (parts->factories_by_name != NULL
                && PyDict_SetItem(namespace, str_factories, parts->factories_by_name) < 0)) {
            return -1;
        }
        int found = PyDict_Contains(namespace, str_match_args);
        if (found < 0 || (!found && PyDict_SetItem(namespace, str_match_args, parts->names) < 0)) {
            return -1;
        }
        if (parts->new != NULL && PyDict_SetItem(namespace, str_new, parts->new) < 0) {
            return -1;
        }
    }
    if (parts->doc != NULL && PyDict_SetItem(namespace, str_doc_attribute, parts->doc) < 0) {
        return -1;
    }
    PyType_Modified(cls);
    if (parts->new != NULL) {
        PyObject *function = PyObject_GetAttr(parts->new, str_func);
        if (function == NULL) {
            return -1;
        }
        int installed = install_constructor(cls, parts->names, parts->new_defaults,
                                            parts->factories, builder.factory_marker, function);
        Py_DECREF(function);
        if (installed < 0) {
            return -1;
        }
    }
    return 0;
}

/*
 * _record._build for the common class statement: one base, plain or field()
 * defaults, no ClassVar, not generic, no metaclass. It declines, having
 * changed nothing, on anything else and on every definition error but an
 * invalid field name, whose check it shares: _build words every error.
 */
static int
build_record(PyTypeObject *cls)
{
    Parts parts = {0};
    if ((parts.factories = PyDict_New()) == NULL) {
        return BUILD_FAILED;
    }
    int outcome = compute_parts(&parts, cls);
    if (outcome == BUILD_DONE) {
        int sealed = seal_type(cls);
        if (sealed <= 0) {
            outcome = sealed < 0 ? BUILD_FAILED : BUILD_DECLINED; /* _build forbids attributes */
        }
        else if (write_parts(&parts, cls) < 0) {
            outcome = BUILD_FAILED;
        }
    }
    parts_clear(&parts);
    return outcome;
}

static PyObject *
records_build(PyObject *module, PyObject *cls)
{
    if (builder.record == NULL || !PyType_Check(cls)) {
        Py_RETURN_FALSE;
    }
    int outcome = build_record((PyTypeObject *)cls);
    return outcome < 0 ? NULL : PyBool_FromLong(outcome);
}

/* Record.__init_subclass__: builds cls in C when it can, otherwise calls
 * the Python method (for keywords, or a base between cls and Record that
 * may define __init_subclass__) or _build. */
static PyObject *
record_init_subclass(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *mro = PyType_Check(cls) ? ((PyTypeObject *)cls)->tp_mro : NULL;
    if (builder.record == NULL || nargs != 0 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames))
        || mro == NULL || PyTuple_GET_SIZE(mro) < 3
        || PyTuple_GET_ITEM(mro, PyTuple_GET_SIZE(mro) - 3) != builder.record) {
        if (builder.init_subclass == NULL) {
            PyErr_SetString(PyExc_RuntimeError, "records._speedups is not configured");
            return NULL;
        }
        PyObject *small[8];
        Py_ssize_t total = nargs + 1 + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
        PyObject **stack = total <= 8 ? small : PyMem_New(PyObject *, total);
        if (stack == NULL) {
            return PyErr_NoMemory();
        }
        stack[0] = cls;
        for (Py_ssize_t i = 1; i < total; i++) {
            stack[i] = args[i - 1];
        }
        PyObject *result = PyObject_Vectorcall(builder.init_subclass, stack, nargs + 1, kwnames);
        if (stack != small) {
            PyMem_Free(stack);
        }
        return result;
    }
    int outcome = build_record((PyTypeObject *)cls);
    if (outcome < 0) {
        return NULL;
    }
    if (outcome == BUILD_DECLINED) {
        return PyObject_CallOneArg(builder.build, cls);
    }
    Py_RETURN_NONE;
}

static PyMethodDef init_subclass_def = {
    "__init_subclass__", (PyCFunction)(void (*)(void))record_init_subclass,
    METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
    "Make the new subclass a record type from its annotations.",
};

static PyObject *
records_init_subclass(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "init_subclass() needs the Record class");
        return NULL;
    }
    return PyDescr_NewClassMethod((PyTypeObject *)cls, &init_subclass_def);
}

/* --------------------------------------------------------- Record methods */

/* The record's _fields, as a tuple (new reference), or NULL with an error. */
static PyObject *
fields_of(PyObject *self)
{
    PyObject *fields = PyObject_GetAttr(self, str_fields);
    if (fields != NULL && !PyTuple_Check(fields)) {
        PyObject *as_tuple = PySequence_Tuple(fields);
        Py_SETREF(fields, as_tuple);
    }
    return fields;
}

static PyObject *
new_record(PyTypeObject *cls, PyObject *const *items, Py_ssize_t size)
{
    PyObject *record = cls->tp_alloc(cls, size);
    if (record == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        ((PyTupleObject *)record)->ob_item[i] = Py_NewRef(items[i]);
    }
    return record;
}

static Py_ssize_t
index_in(PyObject *fields, PyObject *name)
{
    Py_ssize_t size = PyTuple_GET_SIZE(fields);
    for (Py_ssize_t i = 0; i < size; i++) {
        if (PyTuple_GET_ITEM(fields, i) == name) {
            return i;
        }
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        if (PyUnicode_Check(field) && PyUnicode_Check(name)
            && PyUnicode_Compare(field, name) == 0) {
            return i;
        }
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
    }
    return -1;
}

#if PY_VERSION_HEX >= 0x030D0000
#define UNKNOWN_FIELD_ERROR PyExc_TypeError
#else
#define UNKNOWN_FIELD_ERROR PyExc_ValueError
#endif

static PyObject *
record_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 0) {
        PyErr_Format(PyExc_TypeError, "Record._replace() takes 1 positional argument but %zd were given",
                     nargs + 1);
        return NULL;
    }
    PyObject *fields = fields_of(self);
    if (fields == NULL) {
        return NULL;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(self);
    PyObject *record = new_record(Py_TYPE(self), ((PyTupleObject *)self)->ob_item, size);
    if (record == NULL) {
        Py_DECREF(fields);
        return NULL;
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *unknown = NULL;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t index = index_in(fields, name);
        if (index < 0 || index >= size) {
            if (unknown == NULL && (unknown = PyList_New(0)) == NULL) {
                goto error;
            }
            if (PyList_Append(unknown, name) < 0) {
                goto error;
            }
            continue;
        }
        Py_SETREF(((PyTupleObject *)record)->ob_item[index], Py_NewRef(args[k]));
    }
    if (unknown != NULL) {
        PyErr_Format(UNKNOWN_FIELD_ERROR, "Got unexpected field names: %R", unknown);
        goto error;
    }
    Py_DECREF(fields);
    return record;

error:
    Py_XDECREF(unknown);
    Py_DECREF(fields);
    Py_DECREF(record);
    return NULL;
}

static PyObject *
record_asdict(PyObject *self, PyObject *unused)
{
    PyObject *fields = fields_of(self);
    if (fields == NULL) {
        return NULL;
    }
    Py_ssize_t size = Py_MIN(PyTuple_GET_SIZE(fields), PyTuple_GET_SIZE(self));
    PyObject *result = _PyDict_NewPresized(size);
    if (result == NULL) {
        Py_DECREF(fields);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        if (PyDict_SetItem(result, PyTuple_GET_ITEM(fields, i), PyTuple_GET_ITEM(self, i)) < 0) {
            Py_DECREF(result);
            Py_DECREF(fields);
            return NULL;
        }
    }
    Py_DECREF(fields);
    return result;
}

static PyObject *
record_repr(PyObject *self, PyObject *unused)
{
    int running = Py_ReprEnter(self);
    if (running != 0) {
        return running > 0 ? PyUnicode_FromString("...") : NULL;
    }
    PyObject *fields = NULL, *name = NULL, *value_repr = NULL;
    PyObject *cls = PyObject_GetAttr(self, str_class);
    if (cls == NULL || (name = PyObject_GetAttr(cls, str_name)) == NULL
        || (fields = fields_of(self)) == NULL) {
        goto error;
    }
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "__name__ must be a str");
        goto error;
    }
    _PyUnicodeWriter writer;
    _PyUnicodeWriter_Init(&writer);
    writer.overallocate = 1;
    writer.min_length = 8 * PyTuple_GET_SIZE(self) + PyUnicode_GET_LENGTH(name) + 2;
    Py_ssize_t size = Py_MIN(PyTuple_GET_SIZE(fields), PyTuple_GET_SIZE(self));
    if (_PyUnicodeWriter_WriteStr(&writer, name) < 0
        || _PyUnicodeWriter_WriteChar(&writer, '(') < 0) {
        goto writer_error;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        if (!PyUnicode_Check(field)) {
            PyErr_SetString(PyExc_TypeError, "_fields must hold str");
            goto writer_error;
        }
        if ((i > 0 && _PyUnicodeWriter_WriteASCIIString(&writer, ", ", 2) < 0)
            || _PyUnicodeWriter_WriteStr(&writer, field) < 0
            || _PyUnicodeWriter_WriteChar(&writer, '=') < 0
            || (value_repr = PyObject_Repr(PyTuple_GET_ITEM(self, i))) == NULL
            || _PyUnicodeWriter_WriteStr(&writer, value_repr) < 0) {
            goto writer_error;
        }
        Py_CLEAR(value_repr);
    }
    if (_PyUnicodeWriter_WriteChar(&writer, ')') < 0) {
        goto writer_error;
    }
    Py_DECREF(fields);
    Py_DECREF(name);
    Py_DECREF(cls);
    Py_ReprLeave(self);
    return _PyUnicodeWriter_Finish(&writer);

writer_error:
    Py_XDECREF(value_repr);
    _PyUnicodeWriter_Dealloc(&writer);
error:
    Py_XDECREF(fields);
    Py_XDECREF(name);
    Py_XDECREF(cls);
    Py_ReprLeave(self);
    return NULL;
}

static PyObject *
record_make(PyObject *cls, PyObject *iterable)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "_make() needs a record class");
        return NULL;
    }
    PyObject *values = PySequence_Tuple(iterable);
    if (values == NULL) {
        return NULL;
    }
    PyObject *fields = PyObject_GetAttr(cls, str_fields);
    Py_ssize_t expected = fields == NULL ? -1 : PyObject_Length(fields);
    Py_XDECREF(fields);
    if (expected < 0) {
        Py_DECREF(values);
        return NULL;
    }
    Py_ssize_t got = PyTuple_GET_SIZE(values);
    PyObject *record = NULL;
    if (got != expected) {
        PyErr_Format(PyExc_TypeError, "Expected %zd arguments, got %zd", expected, got);
    }
    else {
        record = new_record((PyTypeObject *)cls, ((PyTupleObject *)values)->ob_item, got);
    }
    Py_DECREF(values);
    return record;
}

static PyMethodDef record_method_defs[] = {
    {"_replace", (PyCFunction)(void (*)(void))record_replace, METH_FASTCALL | METH_KEYWORDS,
     "Return a new record with the given fields replaced by new values."},
    {"_asdict", record_asdict, METH_NOARGS,
     "Return a new dict which maps field names to their values."},
    {"__repr__", record_repr, METH_NOARGS, "Return repr(self)."},
    {"_make", record_make, METH_O | METH_CLASS,
     "Make a new record from a sequence or iterable of field values."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
records_record_methods(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "record_methods() needs the Record class");
        return NULL;
    }
    PyObject *methods = PyDict_New();
    if (methods == NULL) {
        return NULL;
    }
    for (PyMethodDef *def = record_method_defs; def->ml_name != NULL; def++) {
        PyObject *descriptor = (def->ml_flags & METH_CLASS)
            ? PyDescr_NewClassMethod((PyTypeObject *)cls, def)
            : PyDescr_NewMethod((PyTypeObject *)cls, def);
        if (descriptor == NULL || PyDict_SetItemString(methods, def->ml_name, descriptor) < 0) {
            Py_XDECREF(descriptor);
            Py_DECREF(methods);
            return NULL;
        }
        Py_DECREF(descriptor);
    }
    return methods;
}

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
    str_dict = PyUnicode_InternFromString("__dict__");
    str_new = PyUnicode_InternFromString("__new__");
    str_constructor = PyUnicode_InternFromString("__record_constructor__");
    str_fields = PyUnicode_InternFromString("_fields");
    str_class = PyUnicode_InternFromString("__class__");
    str_name = PyUnicode_InternFromString("__name__");
    if (str_dict == NULL || str_new == NULL || str_constructor == NULL || str_fields == NULL
        || str_class == NULL || str_name == NULL) {
        return -1;
    }
    struct {
        PyObject **slot;
        const char *text;
    } names[] = {
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
