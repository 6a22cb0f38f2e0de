/*
 * C only: the descriptor type of the methods records adds to
 * records.namedtuple's classes in C (__reduce_ex__, __copy__, __deepcopy__,
 * __rich_repr__; those collections writes in Python are Python functions
 * here too: namedtuple_functions.h).
 *
 * It acts as CPython's method_descriptor does (the same binding, the same
 * unbound calls, the same introspection), and differs in one thing: how it
 * pickles. CPython pickles its own as getattr(class, name), and so do
 * multiprocessing's and joblib's picklers for method_descriptor, whatever
 * copyreg says; a class pickled by value (cloudpickle, joblib, dill: a named
 * tuple of __main__ or of a function) is rebuilt from its dict, and does not
 * have the attribute yet while it is. These pickle as
 * records._pickling.namedtuple_method(class, name, fields), which gives the
 * method itself where the class is found by name, and the pure path's
 * stand-in in a class rebuilt from its dict.
 *
 * Part of records/_c/accelerator.c, which includes it once; not compiled on
 * its own.
 */

typedef struct {
    PyObject_HEAD
    PyMethodDef *method; /* static: the table of the namedtuple header */
    PyTypeObject *owner; /* the class whose dict holds it */
    PyObject *fields;    /* the class's field names, for the pickle */
    vectorcallfunc vectorcall;
} NtMethodObject;

static PyTypeObject NtMethodType;

/* A METH_FASTCALL | METH_KEYWORDS function (CPython names its type only from 3.13). */
typedef PyObject *(*FastWithKeywords)(PyObject *, PyObject *const *, Py_ssize_t, PyObject *);

static inline int
is_nt_method(PyObject *object)
{
    return Py_IS_TYPE(object, &NtMethodType);
}

/* The C function of method, called with self, the owner and arguments, as
 * its flags say (the three kinds the namedtuple header uses). */
static PyObject *
call_method_def(PyMethodDef *method, PyTypeObject *owner, PyObject *self, PyObject *const *args,
                Py_ssize_t nargs, PyObject *kwnames)
{
    int flags = method->ml_flags & ~(METH_CLASS | METH_COEXIST);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (Py_EnterRecursiveCall(" while calling a Python object")) {
        return NULL;
    }
    PyObject *result = NULL;
    if (flags == METH_NOARGS) {
        /* The errors of collections' Python methods, which take self only. */
        if (nkw != 0) {
            PyErr_Format(PyExc_TypeError, "%.200s.%.200s() got an unexpected keyword argument '%S'",
                         owner->tp_name, method->ml_name, PyTuple_GET_ITEM(kwnames, 0));
        }
        else if (nargs != 0) {
            PyErr_Format(PyExc_TypeError,
                         "%.200s.%.200s() takes 1 positional argument but %zd were given",
                         owner->tp_name, method->ml_name, nargs + 1);
        }
        else {
            result = method->ml_meth(self, NULL);
        }
    }
    else if (flags == (METH_FASTCALL | METH_KEYWORDS)) {
        result = ((FastWithKeywords)(void (*)(void))method->ml_meth)(self, args, nargs, kwnames);
    }
    else {
        PyErr_SetString(PyExc_SystemError, "a named tuple method of an unknown kind");
    }
    Py_LeaveRecursiveCall();
    return result;
}

/* The error of a descriptor given an object it does not apply to. */
static PyObject *
method_misapplied(NtMethodObject *descr, PyObject *object)
{
    PyErr_Format(PyExc_TypeError, "descriptor '%s' for '%.100s' objects doesn't apply to a '%.100s' object",
                 descr->method->ml_name, descr->owner->tp_name, Py_TYPE(object)->tp_name);
    return NULL;
}

static PyObject *
method_get(PyObject *self, PyObject *object, PyObject *type)
{
    NtMethodObject *descr = (NtMethodObject *)self;
    if (object == NULL) {
        return Py_NewRef(self);
    }
    if (!PyObject_TypeCheck(object, descr->owner)) {
        return method_misapplied(descr, object);
    }
    /* A bound method of the descriptor, as collections' methods bind: its
     * __doc__, __func__, repr and pickle are a method's. */
    return PyMethod_New(self, object);
}

/* descr(instance, *args): what the interpreter calls for instance.name(*args). */
static PyObject *
method_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    NtMethodObject *descr = (NtMethodObject *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs < 1) {
        PyErr_Format(PyExc_TypeError, "%.200s.%.200s() missing 1 required positional argument: 'self'",
                     descr->owner->tp_name, descr->method->ml_name);
        return NULL;
    }
    if (!PyObject_TypeCheck(args[0], descr->owner)) {
        return method_misapplied(descr, args[0]);
    }
    return call_method_def(descr->method, descr->owner, args[0], args + 1, nargs - 1, kwnames);
}

/* A new descriptor of type kind for method of owner. */
static PyObject *
new_nt_method(PyTypeObject *kind, PyMethodDef *method, PyTypeObject *owner, PyObject *fields)
{
    NtMethodObject *descr = PyObject_GC_New(NtMethodObject, kind);
    if (descr == NULL) {
        return NULL;
    }
    descr->method = method;
    descr->owner = (PyTypeObject *)Py_NewRef((PyObject *)owner);
    descr->fields = Py_NewRef(fields);
    descr->vectorcall = method_vectorcall;
    PyObject_GC_Track(descr);
    return (PyObject *)descr;
}

static int
nt_method_traverse(PyObject *self, visitproc visit, void *arg)
{
    NtMethodObject *descr = (NtMethodObject *)self;
    Py_VISIT(descr->owner);
    Py_VISIT(descr->fields);
    return 0;
}

/* No tp_clear: the collector breaks a class's cycles by clearing the class
 * (its dict), so that a descriptor holds its owner for as long as it lives. */
static void
nt_method_dealloc(PyObject *self)
{
    NtMethodObject *descr = (NtMethodObject *)self;
    PyObject_GC_UnTrack(self);
    Py_DECREF(descr->owner);
    Py_DECREF(descr->fields);
    PyObject_GC_Del(self);
}

static PyObject *
nt_method_repr(PyObject *self)
{
    NtMethodObject *descr = (NtMethodObject *)self;
    return PyUnicode_FromFormat("<method '%s' of '%s' objects>", descr->method->ml_name,
                                descr->owner->tp_name);
}

/* records._pickling.namedtuple_method(owner, name, fields): see the top. */
static PyObject *
nt_method_reduce(PyObject *self, PyObject *unused)
{
    NtMethodObject *descr = (NtMethodObject *)self;
    /* As pickle checks a function it pickles by name: that name must give
     * this descriptor still. */
    PyObject *name = PyUnicode_FromString(descr->method->ml_name);
    PyObject *found = name == NULL ? NULL : PyDict_GetItemWithError(descr->owner->tp_dict, name);
    Py_XDECREF(name);
    if (found != self) {
        if (!PyErr_Occurred()) {
            PyObject *pickle = PyImport_ImportModule("pickle");
            PyObject *error = pickle == NULL ? NULL : PyObject_GetAttrString(pickle, "PicklingError");
            if (error != NULL) {
                PyErr_Format(error, "Can't pickle %R: it's not the same object as %s.%s",
                             self, descr->owner->tp_name, descr->method->ml_name);
            }
            Py_XDECREF(error);
            Py_XDECREF(pickle);
        }
        return NULL;
    }
    PyObject *pickling = records_module(str_pickling);
    PyObject *load = pickling == NULL ? NULL : PyObject_GetAttrString(pickling, "namedtuple_method");
    Py_XDECREF(pickling);
    if (load == NULL) {
        return NULL;
    }
    return Py_BuildValue("N(OsO)", load, (PyObject *)descr->owner, descr->method->ml_name,
                         descr->fields);
}

/* ml_doc is "name(signature)\n--\n\ndoc", as CPython's own: its parts. */
static const char *
doc_body(const char *doc)
{
    const char *marker = doc == NULL ? NULL : strstr(doc, ")\n--\n\n");
    return marker == NULL ? doc : marker + 6;
}

/* The doc, where "%U" is the name of the class, as it was made. */
static PyObject *
nt_method_doc(PyObject *self, void *closure)
{
    NtMethodObject *descr = (NtMethodObject *)self;
    const char *body = doc_body(descr->method->ml_doc);
    if (body == NULL) {
        Py_RETURN_NONE;
    }
    if (strstr(body, "%U") == NULL) {
        return PyUnicode_FromString(body);
    }
    return PyUnicode_FromFormat(body, ((PyHeapTypeObject *)descr->owner)->ht_name);
}

static PyObject *
nt_method_text_signature(PyObject *self, void *closure)
{
    const char *doc = ((NtMethodObject *)self)->method->ml_doc;
    const char *start = doc == NULL ? NULL : strchr(doc, '(');
    const char *end = doc == NULL ? NULL : strstr(doc, ")\n--\n\n");
    if (start == NULL || end == NULL || end < start) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromStringAndSize(start, end - start + 1);
}

static PyObject *
nt_method_name(PyObject *self, void *closure)
{
    return PyUnicode_FromString(((NtMethodObject *)self)->method->ml_name);
}

static PyObject *
nt_method_qualname(PyObject *self, void *closure)
{
    NtMethodObject *descr = (NtMethodObject *)self;
    PyObject *qualname = PyObject_GetAttr((PyObject *)descr->owner, str_qualname);
    if (qualname == NULL) {
        return NULL;
    }
    PyObject *result = PyUnicode_FromFormat("%S.%s", qualname, descr->method->ml_name);
    Py_DECREF(qualname);
    return result;
}

/* An empty dict, as a function has: typing.get_type_hints takes it. */
static PyObject *
nt_method_annotations(PyObject *self, void *closure)
{
    return PyDict_New();
}

static PyObject *
nt_method_objclass(PyObject *self, void *closure)
{
    return Py_NewRef((PyObject *)((NtMethodObject *)self)->owner);
}

static PyGetSetDef nt_method_getset[] = {
    {"__doc__", nt_method_doc, NULL, NULL, NULL},
    {"__text_signature__", nt_method_text_signature, NULL, NULL, NULL},
    {"__name__", nt_method_name, NULL, NULL, NULL},
    {"__qualname__", nt_method_qualname, NULL, NULL, NULL},
    {"__objclass__", nt_method_objclass, NULL, NULL, NULL},
    {"__annotations__", nt_method_annotations, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef nt_method_methods[] = {
    {"__reduce__", nt_method_reduce, METH_NOARGS,
     "Pickle as records._pickling.namedtuple_method(class, name, fields)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject NtMethodType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._accelerator_c.NamedTupleMethod",
    .tp_basicsize = sizeof(NtMethodObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
                | Py_TPFLAGS_METHOD_DESCRIPTOR | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A C method of a records.namedtuple class, as a method_descriptor.",
    .tp_dealloc = nt_method_dealloc,
    .tp_traverse = nt_method_traverse,
    .tp_repr = nt_method_repr,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(NtMethodObject, vectorcall),
    .tp_descr_get = method_get,
    .tp_getset = nt_method_getset,
    .tp_methods = nt_method_methods,
};

static int
nt_method_types_ready(void)
{
    return PyType_Ready(&NtMethodType);
}
