/*
 * The C vectorcall constructor of a record class, and install().
 *
 * Part of records/_speedups.c, which includes it once, after its interned
 * strings; not compiled on its own.
 */

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
