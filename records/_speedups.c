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
    PyObject *defaults;       /* tuple, one per field: value, or NULL slot via None+flag */
    PyObject *factories;      /* tuple, one per field: callable or None */
    PyObject *python_new;     /* the class's __new__ function, to detect a change */
    char *has_default;        /* per field: 1 if defaults[i] applies */
    Py_ssize_t size;
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
    PyMem_Free(self->has_default);
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
    PyObject *function = PyObject_GetAttrString(new, "__func__");
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
        /* Defaults and factories belong to the last fields only (install()
         * reads them that way), so once one is needed, no required field is
         * left to miss: a factory never runs before a call error. */
        PyObject *factory = PyTuple_GET_ITEM(self->factories, i);
        if (factory != Py_None) {
            PyObject *value = PyObject_CallNoArgs(factory);
            if (value == NULL) {
                Py_DECREF(record);
                return NULL;
            }
            items[i] = value;
        }
        else if (self->has_default[i]) {
            items[i] = Py_NewRef(PyTuple_GET_ITEM(self->defaults, i));
        }
        else {
            goto slow;  /* a missing argument */
        }
    }
    return record;

slow:
    Py_DECREF(record);
    return call_through_type(callable, args, nargs, kwnames);
}

static PyObject *
records_install(PyObject *module, PyObject *args)
{
    PyObject *cls_object, *names, *defaults, *factories, *marker;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O:install", &PyType_Type, &cls_object,
                          &PyTuple_Type, &names, &PyTuple_Type, &defaults,
                          &PyDict_Type, &factories, &marker)) {
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)cls_object;
    Py_ssize_t size = PyTuple_GET_SIZE(names);
    Py_ssize_t ndefaults = PyTuple_GET_SIZE(defaults);
    /* Only classes called through type.__call__ with object's __init__, whose
     * instances are tuples; anything else keeps the Python path. */
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || !PyType_IsSubtype(cls, &PyTuple_Type)
        || Py_TYPE(cls)->tp_call != PyType_Type.tp_call
        || cls->tp_init != PyBaseObject_Type.tp_init || ndefaults > size) {
        Py_RETURN_FALSE;
    }
    PyObject *new = _PyType_Lookup(cls, str_new);
    if (new == NULL || !Py_IS_TYPE(new, &PyStaticMethod_Type)) {
        Py_RETURN_FALSE;
    }
    Constructor *self = PyObject_GC_New(Constructor, &ConstructorType);
    if (self == NULL) {
        return NULL;
    }
    self->cls = cls;
    self->size = size;
    self->version_tag = 0;
    self->names = PyTuple_New(size);
    self->defaults = PyTuple_New(size);
    self->factories = PyTuple_New(size);
    self->python_new = PyObject_GetAttrString(new, "__func__");
    self->has_default = PyMem_Calloc(size ? size : 1, 1);
    if (self->names == NULL || self->defaults == NULL || self->factories == NULL
        || self->python_new == NULL || self->has_default == NULL) {
        if (self->has_default == NULL) {
            PyErr_NoMemory();
        }
        goto error;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_CheckExact(name)) {
            PyErr_SetString(PyExc_TypeError, "field names must be str");
            goto error;
        }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        PyTuple_SET_ITEM(self->names, i, name);
        PyObject *default_value = Py_None;
        PyObject *factory = Py_None;
        Py_ssize_t default_index = i - (size - ndefaults);
        if (default_index >= 0) {
            default_value = PyTuple_GET_ITEM(defaults, default_index);
            if (default_value == marker) {
                PyObject *key = PyLong_FromSsize_t(i);
                if (key == NULL) {
                    goto error;
                }
                factory = PyDict_GetItemWithError(factories, key);
                Py_DECREF(key);
                if (factory == NULL) {
                    if (!PyErr_Occurred()) {
                        PyErr_Format(PyExc_ValueError, "no factory for field %zd", i);
                    }
                    goto error;
                }
                default_value = Py_None;
            }
            else {
                self->has_default[i] = 1;
            }
        }
        PyTuple_SET_ITEM(self->defaults, i, Py_NewRef(default_value));
        PyTuple_SET_ITEM(self->factories, i, Py_NewRef(factory));
    }
    PyObject_GC_Track(self);
    if (PyDict_SetItem(cls->tp_dict, str_constructor, (PyObject *)self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    Py_DECREF(self);
    PyType_Modified(cls);
    cls->tp_vectorcall = record_vectorcall;
    Py_RETURN_TRUE;

error:
    Py_DECREF(self);
    return NULL;
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
