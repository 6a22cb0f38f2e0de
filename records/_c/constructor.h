/*
 * C only: the C constructor of record classes.
 *
 * A record class's __new__ is a Constructor: a staticmethod of the generated
 * Python __new__ (so Python sees exactly that function), which also holds the
 * field names and factories. enable(cls) gives the class a vectorcall that
 * finds the Constructor the way type.__call__ finds __new__ (an MRO lookup),
 * binds the arguments to the fields in C and builds the tuple directly.
 * Anything unusual (a wrong call, a __new__, __init__ or __code__ assigned
 * later, a metaclass __call__) goes to type.__call__, that is, to the Python
 * function, so errors, messages and behaviour are those of the Python path.
 * The defaults are the function's __defaults__ at each call: the namedtuple
 * idiom Point.__new__.__defaults__ = (...) works on both paths.
 *
 * Part of records/_c/accelerator.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */

typedef struct {
    PyObject *function;  /* the generated __new__, also the staticmethod's callable */
    PyObject *code;      /* its __code__ when made: another one sends calls to Python */
    PyObject *names;     /* tuple of interned field names */
    PyObject *factories; /* NULL, or per field: its default factory, or None */
    PyObject *marker;    /* _fields.FACTORY: "call the factory" */
    Py_ssize_t size;
    /* What copying a record last found (record.h, checked_class_data; not
     * on free-threaded builds): the class, identity only, and its version
     * tag when it pickled as usual; copyreg's dispatch table. */
    PyTypeObject *copied_type;
    unsigned int copied_version;
    PyObject *dispatch_table;
} ConstructorData;

/* The Constructor's own fields follow staticmethod's, whatever their size. */
#define CONSTRUCTOR_DATA(self) \
    ((ConstructorData *)((char *)(self) + PyStaticMethod_Type.tp_basicsize))

/* Where staticmethod (and classmethod) keep their callable: right after the
 * object header, as checked on real ones when the type is readied; -1 if not
 * there, and then staticmethod's own __init__ sets it. */
static Py_ssize_t staticmethod_callable_offset = -1;

static PyTypeObject ConstructorType;

static int
constructor_traverse(PyObject *self, visitproc visit, void *arg)
{
    ConstructorData *data = CONSTRUCTOR_DATA(self);
    Py_VISIT(data->function);
    Py_VISIT(data->code);
    Py_VISIT(data->names);
    Py_VISIT(data->factories);
    Py_VISIT(data->marker);
    Py_VISIT(data->dispatch_table);
    return PyStaticMethod_Type.tp_traverse(self, visit, arg);
}

/* Only what can be part of a cycle: a Constructor the collector cleared
 * has no function, and sends every call to type.__call__. */
static int
constructor_clear(PyObject *self)
{
    ConstructorData *data = CONSTRUCTOR_DATA(self);
    Py_CLEAR(data->function);
    Py_CLEAR(data->factories);
    Py_CLEAR(data->dispatch_table);
    return PyStaticMethod_Type.tp_clear(self);
}

static void
constructor_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    ConstructorData *data = CONSTRUCTOR_DATA(self);
    Py_CLEAR(data->function);
    Py_CLEAR(data->code);
    Py_CLEAR(data->names);
    Py_CLEAR(data->factories);
    Py_CLEAR(data->marker);
    Py_CLEAR(data->dispatch_table);
    /* staticmethod's dealloc untracks the object itself, as subtype_dealloc
     * expects of a base's dealloc: track it again first. */
    PyObject_GC_Track(self);
    PyStaticMethod_Type.tp_dealloc(self);
}

static int
constructor_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyErr_SetString(PyExc_TypeError, "a record's Constructor cannot be initialized again");
    return -1;
}

/* Pickled (by value, as cloudpickle does for classes of __main__) and copied
 * as the plain staticmethod it is to Python. A class pickled by value is
 * pickled from its dict, where __new__ comes before the accessors: if dill
 * is loaded, it is told first how to pickle them (records/_pickling.py). */
static PyObject *
constructor_reduce(PyObject *self, PyObject *unused)
{
    PyObject *dill = PyImport_GetModule(str_dill);
    if (dill == NULL && PyErr_Occurred()) {
        return NULL;
    }
    if (dill != NULL) {
        Py_DECREF(dill);
        /* Imported now if no build has needed it yet. */
        PyObject *pickling = records_module(str_pickling);
        PyObject *done = pickling == NULL ? NULL
                                          : PyObject_CallMethod(pickling, "register_dill", NULL);
        Py_XDECREF(pickling);
        if (done == NULL) {
            return NULL;
        }
        Py_DECREF(done);
    }
    PyObject *function = CONSTRUCTOR_DATA(self)->function;
    return Py_BuildValue("O(O)", (PyObject *)&PyStaticMethod_Type,
                         function != NULL ? function : Py_None);
}

static PyMethodDef constructor_methods[] = {
    {"__reduce__", constructor_reduce, METH_NOARGS, "Pickle as staticmethod(function)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ConstructorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._accelerator_c.Constructor",
    /* Made only by constructor(): never without its data. */
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "The __new__ of a record class: staticmethod(function), with what a C call needs.",
    .tp_dealloc = constructor_dealloc,
    .tp_traverse = constructor_traverse,
    .tp_clear = constructor_clear,
    .tp_init = constructor_init,
    .tp_methods = constructor_methods,
};

static int
constructor_type_ready(void)
{
    if (ConstructorType.tp_base != NULL) {
        return 0;
    }
    /* staticmethod and classmethod both keep their callable right after the
     * object header (CPython's funcobject.c): checked here on each. */
    PyObject *probe = PyStaticMethod_New(Py_None);
    PyObject *class_probe = PyClassMethod_New(Py_None);
    if (probe == NULL || class_probe == NULL) {
        Py_XDECREF(probe);
        Py_XDECREF(class_probe);
        return -1;
    }
    Py_ssize_t size = (Py_ssize_t)(sizeof(PyObject) + 2 * sizeof(PyObject *));
    if (PyStaticMethod_Type.tp_basicsize == size && PyClassMethod_Type.tp_basicsize == size
        && *(PyObject **)((char *)probe + sizeof(PyObject)) == Py_None
        && *(PyObject **)((char *)class_probe + sizeof(PyObject)) == Py_None) {
        staticmethod_callable_offset = (Py_ssize_t)sizeof(PyObject);
    }
    Py_DECREF(probe);
    Py_DECREF(class_probe);
    ConstructorType.tp_base = &PyStaticMethod_Type;
    ConstructorType.tp_basicsize = PyStaticMethod_Type.tp_basicsize + (Py_ssize_t)sizeof(ConstructorData);
    return PyType_Ready(&ConstructorType);
}

/* The interned copy of names, a tuple of exact str (new reference). */
static PyObject *
interned_names(PyObject *names)
{
    Py_ssize_t size = PyTuple_GET_SIZE(names);
    PyObject *interned = Py_NewRef(names);
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_CheckExact(name)) {
            Py_DECREF(interned);
            PyErr_SetString(PyExc_TypeError, "field names must be str");
            return NULL;
        }
        if (PyUnicode_CHECK_INTERNED(name)) {
            continue;
        }
        if (interned == names) { /* a copy: the class's _fields keeps its own objects */
            Py_SETREF(interned, PyTuple_New(size));
            if (interned == NULL) {
                return NULL;
            }
            for (Py_ssize_t j = 0; j < size; j++) {
                PyTuple_SET_ITEM(interned, j, Py_NewRef(PyTuple_GET_ITEM(names, j)));
            }
        }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        Py_SETREF(((PyTupleObject *)interned)->ob_item[i], name);
    }
    return interned;
}

/* The factories of a record of size fields, from a dict of index -> factory
 * (or NULL): NULL when there are none, else a tuple with None for the other
 * fields. */
static int
factories_by_index(PyObject *factories, Py_ssize_t size, PyObject **result)
{
    *result = NULL;
    if (factories == NULL || PyDict_GET_SIZE(factories) == 0) {
        return 0;
    }
    PyObject *per_field = PyTuple_New(size);
    if (per_field == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyTuple_SET_ITEM(per_field, i, Py_NewRef(Py_None));
    }
    Py_ssize_t position = 0;
    PyObject *key, *factory;
    while (PyDict_Next(factories, &position, &key, &factory)) {
        Py_ssize_t index = PyLong_Check(key) ? PyLong_AsSsize_t(key) : -1;
        if (index < 0 || index >= size) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "factories must map field indexes to factories");
            }
            Py_DECREF(per_field);
            return -1;
        }
        Py_SETREF(((PyTupleObject *)per_field)->ob_item[index], Py_NewRef(factory));
    }
    *result = per_field;
    return 0;
}

/* constructor(function, names, factories, marker): a new Constructor. */
static PyObject *
make_constructor(PyObject *function, PyObject *names, PyObject *factories, PyObject *marker)
{
    if (!PyFunction_Check(function) || !PyTuple_Check(names)
        || (factories != NULL && !PyDict_Check(factories))) {
        PyErr_SetString(PyExc_TypeError,
                        "constructor() takes a function, a tuple of names and a dict of factories");
        return NULL;
    }
    PyObject *interned = interned_names(names);
    if (interned == NULL) {
        return NULL;
    }
    PyObject *per_field;
    if (factories_by_index(factories, PyTuple_GET_SIZE(interned), &per_field) < 0) {
        Py_DECREF(interned);
        return NULL;
    }
    PyObject *self = ConstructorType.tp_alloc(&ConstructorType, 0);
    if (self == NULL) {
        Py_DECREF(interned);
        Py_XDECREF(per_field);
        return NULL;
    }
    ConstructorData *data = CONSTRUCTOR_DATA(self);
    data->function = Py_NewRef(function);
    data->code = Py_NewRef(PyFunction_GET_CODE(function));
    data->names = interned;
    data->factories = per_field;
    data->marker = Py_NewRef(marker);
    data->size = PyTuple_GET_SIZE(interned);
    if (staticmethod_callable_offset >= 0) {
        *(PyObject **)((char *)self + staticmethod_callable_offset) = Py_NewRef(function);
    }
    else {
        PyObject *arguments = PyTuple_Pack(1, function);
        int failed = arguments == NULL
                     || PyStaticMethod_Type.tp_init(self, arguments, NULL) < 0;
        Py_XDECREF(arguments);
        if (failed) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return self;
}

static PyObject *
records_constructor(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError,
                        "constructor() takes function, names, factories and marker");
        return NULL;
    }
    return make_constructor(args[0], args[1], args[2], args[3]);
}

/* type.__call__ with vectorcall arguments: the Python path, for everything
 * the C path does not handle. */
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

/* The index of keyword name among names, or -1. Names are interned and most
 * keywords too, so identity finds them; an equal str is looked for next. */
static Py_ssize_t
field_index(PyObject *names, Py_ssize_t size, PyObject *name)
{
    for (Py_ssize_t i = 0; i < size; i++) {
        if (PyTuple_GET_ITEM(names, i) == name) {
            return i;
        }
    }
    if (!PyUnicode_Check(name)) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        if (PyUnicode_Compare(PyTuple_GET_ITEM(names, i), name) == 0) {
            return i;
        }
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
    }
    return -1;
}

/* 1 if every keyword name is an exact str, compared as str compares. */
static int
exact_str_keywords(PyObject *kwnames)
{
    Py_ssize_t count = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < count; k++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(kwnames, k))) {
            return 0;
        }
    }
    return 1;
}

/* A new record of cls holding items (references stolen, all of them, even
 * on failure). Nothing runs between the allocation and the last item. */
static PyObject *
record_from_items(PyTypeObject *cls, PyObject **items, Py_ssize_t size)
{
    PyObject *record = cls->tp_alloc(cls, size);
    if (record == NULL) {
        for (Py_ssize_t i = 0; i < size; i++) {
            Py_DECREF(items[i]);
        }
        return NULL;
    }
    reset_hash_cache(record);
    PyObject **slots = ((PyTupleObject *)record)->ob_item;
    for (Py_ssize_t i = 0; i < size; i++) {
        slots[i] = items[i];
    }
    return record;
}

/* A new record of cls from a call of positional arguments only, the last
 * fields from defaults, for a class without factories (the common call):
 * no argument array, the items written straight into the record. NULL, and
 * no error, where the call is not of that kind (too many or too few
 * arguments: the Python function words the error). */
static PyObject *
record_from_positional(PyTypeObject *cls, Py_ssize_t size, PyObject *defaults,
                       PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t ndefaults = defaults == NULL ? 0 : PyTuple_GET_SIZE(defaults);
    Py_ssize_t first_default = size - ndefaults;
    if (nargs > size || nargs < first_default || first_default < 0) {
        return NULL;
    }
    PyObject *record = cls->tp_alloc(cls, size);
    if (record == NULL) {
        return NULL;
    }
    reset_hash_cache(record);
    PyObject **slots = ((PyTupleObject *)record)->ob_item;
    for (Py_ssize_t i = 0; i < nargs; i++) {
        slots[i] = Py_NewRef(args[i]);
    }
    for (Py_ssize_t i = nargs; i < size; i++) {
        slots[i] = Py_NewRef(PyTuple_GET_ITEM(defaults, i - first_default));
    }
    return record;
}

enum { BIND_DONE = 0, BIND_FAILED = -1, BIND_PYTHON = 1 };

/* Bind a call's arguments to values[0:size] (new references), with defaults
 * and factories; BIND_PYTHON leaves the call to the Python function (which
 * words any error), with values cleared. */
static int
bind_arguments(ConstructorData *data, PyObject *defaults, PyObject **values,
               PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t size = data->size;
    Py_ssize_t ndefaults = defaults == NULL ? 0 : PyTuple_GET_SIZE(defaults);
    Py_ssize_t first_default = size - ndefaults;
    int outcome = BIND_PYTHON;
    if (nargs > size || first_default < 0) {
        return BIND_PYTHON;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        values[i] = i < nargs ? Py_NewRef(args[i]) : NULL;
    }
    if (!exact_str_keywords(kwnames)) {
        goto clear; /* a str subclass's == and hash are the Python function's to call */
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; k++) {
        Py_ssize_t index = field_index(data->names, size, PyTuple_GET_ITEM(kwnames, k));
        if (index < 0 || values[index] != NULL) {
            goto clear; /* unknown or repeated */
        }
        values[index] = Py_NewRef(args[nargs + k]);
    }
    for (Py_ssize_t i = nargs; i < size; i++) {
        if (values[i] == NULL) {
            if (i < first_default) {
                goto clear; /* a missing argument */
            }
            values[i] = Py_NewRef(PyTuple_GET_ITEM(defaults, i - first_default));
        }
    }
    /* Every argument is bound: now the factories, as the Python function
     * runs them (for the marker given as a default or passed explicitly).
     * Items are not in a record yet, so a factory sees nothing half-built. */
    if (data->factories != NULL) {
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *factory = PyTuple_GET_ITEM(data->factories, i);
            if (factory == Py_None || values[i] != data->marker) {
                continue;
            }
            Py_INCREF(factory);
            PyObject *value = PyObject_CallNoArgs(factory);
            Py_DECREF(factory);
            if (value == NULL) {
                outcome = BIND_FAILED;
                goto clear;
            }
            Py_SETREF(values[i], value);
        }
    }
    return BIND_DONE;

clear:
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_CLEAR(values[i]);
    }
    return outcome;
}

#define SMALL_RECORD 16

static PyObject *
record_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyTypeObject *cls = (PyTypeObject *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (cls->tp_init != PyBaseObject_Type.tp_init) {
        return call_through_type(callable, args, nargs, kwnames);
    }
    /* __new__ as type.__call__ finds it. Held strongly: a factory may delete
     * it, or change the function's __defaults__, while this call runs. */
    PyObject *found = lookup_ref(cls, str_new);
    if (found == NULL || !Py_IS_TYPE(found, &ConstructorType)) {
        Py_XDECREF(found);
        return call_through_type(callable, args, nargs, kwnames);
    }
    ConstructorData *data = CONSTRUCTOR_DATA(found);
    if (data->function == NULL || PyFunction_GET_CODE(data->function) != data->code) {
        Py_DECREF(found);
        return call_through_type(callable, args, nargs, kwnames);
    }
    PyObject *defaults = Py_XNewRef(PyFunction_GET_DEFAULTS(data->function));
    Py_ssize_t size = data->size;
    if (data->factories == NULL && (kwnames == NULL || PyTuple_GET_SIZE(kwnames) == 0)) {
        PyObject *record = record_from_positional(cls, size, defaults, args, nargs);
        if (record != NULL || PyErr_Occurred()) {
            Py_XDECREF(defaults);
            Py_DECREF(found);
            return record;
        }
    }
    PyObject *small[SMALL_RECORD];
    PyObject **values = size <= SMALL_RECORD ? small : PyMem_New(PyObject *, size);
    PyObject *record = NULL;
    if (values == NULL) {
        PyErr_NoMemory();
    }
    else {
        int bound = bind_arguments(data, defaults, values, args, nargs, kwnames);
        if (bound == BIND_DONE) {
            record = record_from_items(cls, values, size);
        }
        else if (bound == BIND_PYTHON) {
            record = call_through_type(callable, args, nargs, kwnames);
        }
        if (values != small) {
            PyMem_Free(values);
        }
    }
    Py_XDECREF(defaults);
    Py_DECREF(found);
    return record;
}

/* A new tuple of the count objects in first, then the items of tuple rest. */
static PyObject *
tuple_after(PyObject *const *first, Py_ssize_t count, PyObject *rest)
{
    PyObject *result = PyTuple_New(count + PyTuple_GET_SIZE(rest));
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyTuple_SET_ITEM(result, i, Py_NewRef(first[i]));
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(rest); i++) {
        PyTuple_SET_ITEM(result, count + i, Py_NewRef(PyTuple_GET_ITEM(rest, i)));
    }
    return result;
}

/* 1 if cls.__new__(cls, *items) makes a record of exactly items, count of
 * them: its __new__ is a Constructor of the function records made, of count
 * fields (fewer items would take defaults, or fail). */
static int
makes_record_of_arguments(PyTypeObject *cls, Py_ssize_t count)
{
    PyObject *found = lookup_ref(cls, str_new);
    if (found == NULL || !Py_IS_TYPE(found, &ConstructorType)) {
        Py_XDECREF(found);
        return 0;
    }
    ConstructorData *data = CONSTRUCTOR_DATA(found);
    int makes = data->function != NULL && PyFunction_GET_CODE(data->function) == data->code
                && PyTuple_GET_SIZE(data->names) == count;
    Py_DECREF(found);
    return makes;
}

/* CPython's own vectorcall of Python functions, as the first function
 * records gives one of its own had it (the same for every function). */
static vectorcallfunc python_function_vectorcall;

/* Have function's calls run call, which must do what its code does, and
 * hand any call it does not take to python_function_vectorcall. */
static void
run_function_in_c(PyObject *function, vectorcallfunc call)
{
    vectorcallfunc current = ((PyFunctionObject *)function)->vectorcall;
    store_once((void **)&python_function_vectorcall, (void *)current);
    if (current != (vectorcallfunc)LOAD_PTR(python_function_vectorcall)) {
        return; /* not CPython's: someone else's to keep */
    }
#if PY_VERSION_HEX >= 0x030C0000
    PyFunction_SetVectorcall((PyFunctionObject *)function, call);
#else
    ((PyFunctionObject *)function)->vectorcall = call;
#endif
}

/* 1 if tuple.__new__(cls, ...) makes a cls of tuple's allocation: cls a
 * tuple subclass whose first static base is tuple (tuple.__new__ refuses
 * others, as unsafe). */
static int
tuple_new_applies(PyObject *cls)
{
    if (!PyType_Check(cls)) {
        return 0;
    }
    PyTypeObject *base = (PyTypeObject *)cls;
    while (base != NULL && (base->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        base = base->tp_base;
    }
    return base == &PyTuple_Type;
}

/* A call of the function of a Constructor, __new__(cls, *args, **kwargs):
 * bound in C, as record_vectorcall binds a call to the class, where cls is
 * a class records has finished (enable_constructor) and the function is
 * still the __new__ that cls finds, of the code it was made with (pickle
 * and copy call it so, and Python code that calls cls.__new__). Any other
 * call runs its code, which refuses instances of a class being built. */
static PyObject *
new_function_vectorcall(PyObject *function, PyObject *const *args, size_t nargsf,
                        PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *found = nargs >= 1 && PyType_Check(args[0])
                              && ((PyTypeObject *)args[0])->tp_vectorcall == record_vectorcall
                              && tuple_new_applies(args[0])
                          ? lookup_ref((PyTypeObject *)args[0], str_new)
                          : NULL;
    /* Held strongly: a factory may delete it, or change the function's
     * __defaults__, while this call runs. */
    if (found == NULL || !Py_IS_TYPE(found, &ConstructorType)
        || CONSTRUCTOR_DATA(found)->function != function
        || PyFunction_GET_CODE(function) != CONSTRUCTOR_DATA(found)->code) {
        Py_XDECREF(found);
        return python_function_vectorcall(function, args, nargsf, kwnames);
    }
    ConstructorData *data = CONSTRUCTOR_DATA(found);
    PyObject *defaults = Py_XNewRef(PyFunction_GET_DEFAULTS(function));
    Py_ssize_t size = data->size;
    PyObject *small[SMALL_RECORD];
    PyObject **values = size <= SMALL_RECORD ? small : PyMem_New(PyObject *, size);
    PyObject *record = NULL;
    if (values == NULL) {
        PyErr_NoMemory();
    }
    else {
        int bound = bind_arguments(data, defaults, values, args + 1, nargs - 1, kwnames);
        if (bound == BIND_DONE) {
            record = record_from_items((PyTypeObject *)args[0], values, size);
        }
        else if (bound == BIND_PYTHON) {
            record = python_function_vectorcall(function, args, nargsf, kwnames);
        }
        if (values != small) {
            PyMem_Free(values);
        }
    }
    Py_XDECREF(defaults);
    Py_DECREF(found);
    return record;
}

/* Let calls to cls take the C constructor: only classes that type.__call__
 * itself calls, whose instances are tuples, and whose __new__ is one; and
 * calls of that __new__ too. */
static int
enable_constructor(PyTypeObject *cls)
{
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || !PyType_IsSubtype(cls, &PyTuple_Type)
        || Py_TYPE(cls)->tp_call != PyType_Type.tp_call) {
        return 0;
    }
    PyObject *found = _PyType_Lookup(cls, str_new); /* identity only */
    if (found == NULL || !Py_IS_TYPE(found, &ConstructorType)) {
        return 0;
    }
    PyObject *function = CONSTRUCTOR_DATA(found)->function;
    if (function != NULL && PyFunction_Check(function)) {
        run_function_in_c(function, new_function_vectorcall);
    }
    cls->tp_vectorcall = record_vectorcall;
    return 1;
}

static PyObject *
records_enable(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "enable() needs a class");
        return NULL;
    }
    finish_allocation((PyTypeObject *)cls);
    return PyBool_FromLong(enable_constructor((PyTypeObject *)cls));
}
