/*
 * C only: the methods collections.namedtuple writes as Python functions
 * (_make, _replace, __repr__, _asdict, __getnewargs__), for
 * records.namedtuple's classes built in C: Python functions too, so that inspect, pickle and the
 * libraries that look at them (rich compares inspect.getfile of __repr__)
 * see what they see for collections'. Each is a new function of the code of
 * the pure path's method (records/_namedtuple.py, METHOD_TEMPLATES), named
 * for its class, with a closure of its own cell holding the one value of the
 * class it needs, as collections' closures do.
 *
 * A call of one runs C instead of its code where the C does the same
 * (PyFunction_SetVectorcall, whose contract that is): each vectorcall below
 * takes the common calls, and hands any other, and any function whose code
 * or closure was changed, to CPython's own vectorcall, which runs the code.
 * CPython 3.11 runs the code of a Python function that Python code calls
 * (it inlines the call); from C (repr(), pickle, copy) the C runs there too.
 *
 * Part of records/_c/accelerator.c, which includes it once, after
 * namedtuple.h; not compiled on its own.
 */

/* The names of the functions, in the order of METHOD_TEMPLATES (interned:
 * nt_functions_ready). */
static const char *const nt_function_texts[NT_FN_COUNT] = {
    "_make", "_replace", "__repr__", "_asdict", "__getnewargs__",
};
/* What follows the class's name in each qualified name. */
static const char *const nt_function_suffixes[NT_FN_COUNT] = {
    "._make", "._replace", ".__repr__", "._asdict", ".__getnewargs__",
};
static PyObject *nt_function_names[NT_FN_COUNT];

/* The code of each template, from the first METHOD_TEMPLATES loaded, held
 * for the life of the process as the interned names are: a function of
 * other code runs its code. */
static PyObject *nt_function_codes[NT_FN_COUNT];

/* _make's classmethod (below). */
static PyTypeObject MakeMethodType;

/* Whether each template has a closure of one cell (the others have none). */
static const int nt_function_has_cell[NT_FN_COUNT] = {1, 1, 1, 0, 0};

/* The value in the one cell of function's closure (borrowed), or NULL. */
static PyObject *
closure_value(PyObject *function)
{
    PyObject *closure = PyFunction_GET_CLOSURE(function);
    if (closure == NULL || !PyTuple_CheckExact(closure) || PyTuple_GET_SIZE(closure) != 1) {
        return NULL;
    }
    PyObject *cell = PyTuple_GET_ITEM(closure, 0);
    return PyCell_Check(cell) ? PyCell_GET(cell) : NULL;
}

/* 1 if function is the template's function index records made, of its
 * code: what its vectorcall may do in C. */
static inline int
runs_template(PyObject *function, int index)
{
    return PyFunction_GET_CODE(function) == nt_function_codes[index];
}

/* The count of fields the closure of _make's function holds, or -1 if it
 * holds none (no error). */
static Py_ssize_t
make_count(PyObject *function)
{
    PyObject *count = closure_value(function);
    if (count == NULL || !PyLong_CheckExact(count)) {
        return -1;
    }
    Py_ssize_t value = PyLong_AsSsize_t(count);
    if (value < 0) {
        PyErr_Clear();
        return -1;
    }
    return value;
}

/* _make(cls, iterable): tuple.__new__(cls, iterable), of len() count. */
static PyObject *
nt_function_make(PyObject *function, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t count = -1;
    if (PyVectorcall_NARGS(nargsf) != 2 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)
        || !runs_template(function, NT_FN_MAKE) || (count = make_count(function)) < 0
        || !tuple_new_applies(args[0])) {
        return python_function_vectorcall(function, args, nargsf, kwnames);
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    PyObject *iterable = args[1];
    if (PyTuple_CheckExact(iterable)) {
        return nt_make_from(cls, iterable, count);
    }
    if (PyList_CheckExact(iterable)) {
        /* The items as they are now, held before the allocation (which may
         * collect garbage, and so run finalizers that change the list), and
         * read under its lock (another thread may change it). */
        PyObject *items[SMALL_RECORD];
        Py_ssize_t size;
        Py_BEGIN_CRITICAL_SECTION(iterable);
        size = PyList_GET_SIZE(iterable);
        for (Py_ssize_t i = 0; i < size && size <= SMALL_RECORD; i++) {
            items[i] = Py_NewRef(PyList_GET_ITEM(iterable, i));
        }
        Py_END_CRITICAL_SECTION();
        if (size <= SMALL_RECORD) {
            PyObject *record = record_from_items(cls, items, size);
            return record == NULL ? NULL : nt_checked_length(cls, record, count);
        }
    }
    PyObject *values = PySequence_Tuple(iterable);
    if (values == NULL) {
        return NULL;
    }
    PyObject *result = nt_make_from(cls, values, count);
    Py_DECREF(values);
    return result;
}

/* 1 if object is a classmethod as records makes them (which binds as
 * classmethod binds). */
static inline int
is_classmethod(PyObject *object)
{
    return Py_IS_TYPE(object, &PyClassMethod_Type) || Py_IS_TYPE(object, &MakeMethodType);
}

/* The count of fields of the _make that self._make finds, where it is
 * records' function of the template's code, bound to type(self) as
 * classmethod binds, and nothing else can answer self._make; else -1. */
static Py_ssize_t
own_make_count(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    if (type->tp_getattro != PyObject_GenericGetAttr || !no_instance_attributes(self)
        || staticmethod_callable_offset < 0) {
        return -1;
    }
    PyObject *found = lookup_ref(type, nt_function_names[NT_FN_MAKE]);
    if (found == NULL || !is_classmethod(found)) {
        Py_XDECREF(found);
        return -1;
    }
    PyObject *function = *(PyObject **)((char *)found + staticmethod_callable_offset);
    Py_ssize_t count = function == NULL || !PyFunction_Check(function)
                               || !runs_template(function, NT_FN_MAKE)
                           ? -1
                           : make_count(function);
    Py_DECREF(found);
    return count;
}

/* _replace(self, /, **kwds): self._make(map(kwds.pop, fields, self)), then
 * an error for any keyword left. In C where self._make is records' own,
 * self iterates as a tuple and the keywords are exact str (whose hash and ==
 * are str's). */
static PyObject *
nt_function_replace(PyObject *function, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *names = NULL;
    if (PyVectorcall_NARGS(nargsf) != 1 || !runs_template(function, NT_FN_REPLACE)
        || (names = closure_value(function)) == NULL || !PyTuple_CheckExact(names)
        || !iterates_as_tuple(Py_TYPE(args[0])) || !tuple_new_applies((PyObject *)Py_TYPE(args[0]))
        || !exact_str_keywords(kwnames)) {
        return python_function_vectorcall(function, args, nargsf, kwnames);
    }
    Py_INCREF(names); /* a type lookup may compare keys, which may run code */
    Py_ssize_t count = own_make_count(args[0]);
    if (count < 0) {
        Py_DECREF(names);
        return python_function_vectorcall(function, args, nargsf, kwnames);
    }
    PyObject *self = args[0];
    PyTypeObject *type = Py_TYPE(self);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    Py_ssize_t size = PyTuple_GET_SIZE(self), fields = PyTuple_GET_SIZE(names);
    Py_ssize_t taken = fields < size ? fields : size; /* map() stops with the shorter */
    Py_ssize_t used = 0;
    PyObject *kwds = NULL, *result = NULL;
    PyObject *values = PyTuple_GetSlice(self, 0, taken);
    for (Py_ssize_t k = 0; values != NULL && k < nkw; k++) {
        Py_ssize_t index = field_index(names, taken, PyTuple_GET_ITEM(kwnames, k));
        if (index >= 0) {
            Py_SETREF(((PyTupleObject *)values)->ob_item[index], Py_NewRef(args[1 + k]));
            used++;
        }
    }
    if (values != NULL && (result = nt_make_from(type, values, count)) != NULL && used != nkw) {
        kwds = PyDict_New();
        for (Py_ssize_t k = 0; kwds != NULL && k < nkw; k++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, k);
            if (field_index(names, taken, name) < 0 && PyDict_SetItem(kwds, name, args[1 + k]) < 0) {
                Py_CLEAR(kwds);
            }
        }
        if (kwds != NULL) {
            unexpected_fields(kwds);
        }
        Py_CLEAR(result);
    }
    Py_XDECREF(kwds);
    Py_XDECREF(values);
    Py_DECREF(names);
    return result;
}

/* __repr__(self): self.__class__.__name__ + format % self. In C for a
 * tuple (str % tuple is str's own there). */
static PyObject *
nt_function_repr(PyObject *function, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *format = NULL;
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)
        || !runs_template(function, NT_FN_REPR) || (format = closure_value(function)) == NULL
        || !PyUnicode_CheckExact(format) || !PyTuple_Check(args[0])) {
        return python_function_vectorcall(function, args, nargsf, kwnames);
    }
    return nt_repr_with(args[0], format);
}

static PyObject *
nt_function_asdict(PyObject *function, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)
        || !runs_template(function, NT_FN_ASDICT)) {
        return python_function_vectorcall(function, args, nargsf, kwnames);
    }
    return nt_asdict(args[0]);
}

static PyObject *
nt_function_getnewargs(PyObject *function, PyObject *const *args, size_t nargsf,
                       PyObject *kwnames)
{
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)
        || !runs_template(function, NT_FN_GETNEWARGS)) {
        return python_function_vectorcall(function, args, nargsf, kwnames);
    }
    return nt_getnewargs(args[0]);
}

static const vectorcallfunc nt_function_calls[NT_FN_COUNT] = {
    nt_function_make, nt_function_replace, nt_function_repr, nt_function_asdict,
    nt_function_getnewargs,
};

/* 1 if type finds the function records made of template index under its
 * name (on the class or inherited), of the template's code. */
static int
finds_nt_function(PyTypeObject *type, int index)
{
    PyObject *held = lookup_ref(type, nt_function_names[index]), *found = held;
    if (found != NULL && index == NT_FN_MAKE && is_classmethod(found)
        && staticmethod_callable_offset >= 0) {
        found = *(PyObject **)((char *)found + staticmethod_callable_offset);
    }
    int finds = found != NULL && PyFunction_Check(found) && runs_template(found, index);
    Py_XDECREF(held);
    return finds;
}

/* The templates, checked: METHOD_TEMPLATES, a tuple of one Python function
 * per name, with a closure of one cell or none, as nt_function_has_cell
 * says. The first loaded give the codes the vectorcalls run for. */
static PyObject *
checked_templates(Builder *self)
{
    PyObject *templates = HELPER(self, nt_templates);
    if (templates == NULL) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(templates) != NT_FN_COUNT) {
        goto wrong;
    }
    for (int i = 0; i < NT_FN_COUNT; i++) {
        PyObject *template = PyTuple_GET_ITEM(templates, i);
        if (!PyFunction_Check(template)) {
            goto wrong;
        }
        PyObject *closure = PyFunction_GET_CLOSURE(template);
        Py_ssize_t cells = closure == NULL ? 0 : PyTuple_GET_SIZE(closure);
        if (cells != nt_function_has_cell[i]) {
            goto wrong;
        }
    }
    if (nt_function_codes[0] == NULL) {
        for (int i = 0; i < NT_FN_COUNT; i++) {
            nt_function_codes[i] = Py_NewRef(PyFunction_GET_CODE(PyTuple_GET_ITEM(templates, i)));
        }
    }
    return templates;

wrong:
    PyErr_SetString(PyExc_TypeError,
                    "records._namedtuple.METHOD_TEMPLATES must be its five method templates");
    return NULL;
}

/* before + text + after, as one new str. */
static PyObject *
text_between(const char *before, PyObject *text, const char *after)
{
    Py_ssize_t head = (Py_ssize_t)strlen(before), tail = (Py_ssize_t)strlen(after);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    PyObject *result = PyUnicode_New(head + length + tail, Py_MAX(127, PyUnicode_MAX_CHAR_VALUE(text)));
    if (result == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < head; i++) {
        PyUnicode_WriteChar(result, i, (Py_UCS4)(unsigned char)before[i]);
    }
    PyUnicode_CopyCharacters(result, head, text, 0, length);
    for (Py_ssize_t i = 0; i < tail; i++) {
        PyUnicode_WriteChar(result, head + length + i, (Py_UCS4)(unsigned char)after[i]);
    }
    return result;
}

/* Function index for the class typename, of the template's code and
 * globals, named typename.name, with value in its closure's one cell. */
static PyObject *
nt_function(PyObject *template, int index, PyObject *typename, PyObject *value)
{
    PyObject *qualname = text_between("", typename, nt_function_suffixes[index]);
    if (qualname == NULL) {
        return NULL;
    }
    PyObject *function = PyFunction_NewWithQualName(PyFunction_GET_CODE(template),
                                                    PyFunction_GET_GLOBALS(template), qualname);
    Py_DECREF(qualname);
    if (function == NULL) {
        return NULL;
    }
    if (value != NULL) {
        PyObject *cell = PyCell_New(value);
        PyObject *closure = cell == NULL ? NULL : PyTuple_Pack(1, cell);
        Py_XDECREF(cell);
        if (closure == NULL || PyFunction_SetClosure(function, closure) < 0) {
            Py_XDECREF(closure);
            Py_DECREF(function);
            return NULL;
        }
        Py_DECREF(closure);
    }
    if (PyFunction_GET_CODE(function) == nt_function_codes[index]) {
        run_function_in_c(function, nt_function_calls[index]);
    }
    return function;
}

/*
 * _make's classmethod: a classmethod that keeps the method it binds to the
 * class whose dict holds it, and gives that one method at each P._make
 * (a bound method cannot be changed: only its identity tells it is the same
 * one), binding anew to any other class, as classmethod does. It is a
 * classmethod to isinstance(), inspect and help(); it pickles as
 * classmethod(function), as cloudpickle pickles a classmethod.
 */
typedef struct {
    PyObject *owner; /* the class whose dict holds it; borrowed: compared only */
    PyObject *bound; /* the method bound to owner, once made */
} MakeMethodData;

#define MAKE_METHOD_DATA(self) \
    ((MakeMethodData *)((char *)(self) + PyClassMethod_Type.tp_basicsize))

static PyObject *
make_method_get(PyObject *self, PyObject *object, PyObject *type)
{
    MakeMethodData *data = MAKE_METHOD_DATA(self);
    if (type == NULL) {
        type = (PyObject *)Py_TYPE(object);
    }
    if (type != data->owner) {
        return PyClassMethod_Type.tp_descr_get(self, object, type);
    }
    PyObject *known = LOAD_PTR(data->bound);
    if (known == NULL) {
        PyObject *bound = PyClassMethod_Type.tp_descr_get(self, object, type);
        if (bound == NULL) {
            return NULL;
        }
        /* Made meanwhile (by code the binding ran, or another thread): that
         * one stays, and this call returns its own. */
        if (!store_once((void **)&data->bound, bound)) {
            return bound;
        }
        known = bound;
    }
    return Py_NewRef(known);
}

static int
make_method_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(MAKE_METHOD_DATA(self)->bound);
    return PyClassMethod_Type.tp_traverse(self, visit, arg);
}

static int
make_method_clear(PyObject *self)
{
    Py_CLEAR(MAKE_METHOD_DATA(self)->bound);
    return PyClassMethod_Type.tp_clear(self);
}

static void
make_method_dealloc(PyObject *self)
{
    PyObject_GC_UnTrack(self);
    Py_CLEAR(MAKE_METHOD_DATA(self)->bound);
    /* classmethod's dealloc untracks the object itself, as subtype_dealloc
     * expects of a base's dealloc: track it again first. */
    PyObject_GC_Track(self);
    PyClassMethod_Type.tp_dealloc(self);
}

static int
make_method_init(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyErr_SetString(PyExc_TypeError, "_make's classmethod cannot be initialized again");
    return -1;
}

/* classmethod(function), as cloudpickle pickles a classmethod. */
static PyObject *
make_method_reduce(PyObject *self, PyObject *unused)
{
    PyObject *function = *(PyObject **)((char *)self + staticmethod_callable_offset);
    return Py_BuildValue("O(O)", (PyObject *)&PyClassMethod_Type,
                         function != NULL ? function : Py_None);
}

static PyMethodDef make_method_methods[] = {
    {"__reduce__", make_method_reduce, METH_NOARGS, "Pickle as classmethod(function)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject MakeMethodType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._accelerator_c.MakeMethod",
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "_make's classmethod: it binds to its class once.",
    .tp_dealloc = make_method_dealloc,
    .tp_traverse = make_method_traverse,
    .tp_clear = make_method_clear,
    .tp_init = make_method_init,
    .tp_descr_get = make_method_get,
    .tp_methods = make_method_methods,
};

/* classmethod(function) for owner's dict: a MakeMethod where classmethod's
 * layout is the one checked (staticmethod_callable_offset), else a plain
 * classmethod. */
static PyObject *
make_method(PyObject *function, PyTypeObject *owner)
{
    if (staticmethod_callable_offset < 0 || MakeMethodType.tp_base == NULL) {
        return PyClassMethod_New(function);
    }
    PyObject *self = MakeMethodType.tp_alloc(&MakeMethodType, 0);
    if (self == NULL) {
        return NULL;
    }
    *(PyObject **)((char *)self + staticmethod_callable_offset) = Py_NewRef(function);
    MAKE_METHOD_DATA(self)->owner = (PyObject *)owner;
    return self;
}

/* The functions of cls, of field names and repr format, into its dict:
 * _make as a classmethod, and _replace as __replace__ too from 3.13 on, as
 * collections writes them. */
static int
nt_add_functions(Builder *self, PyTypeObject *cls, PyObject *typename, PyObject *names,
                 PyObject *format)
{
    PyObject *templates = checked_templates(self);
    if (templates == NULL) {
        return -1;
    }
    Py_INCREF(templates);
    PyObject *count = PyLong_FromSsize_t(PyTuple_GET_SIZE(names));
    PyObject *make_doc = count == NULL ? NULL
                                       : text_between("Make a new ", typename,
                                                      " object from a sequence or iterable");
    PyObject *replace_doc = make_doc == NULL
                                ? NULL
                                : text_between("Return a new ", typename,
                                               " object replacing specified fields with new "
                                               "values");
    PyObject *values[NT_FN_COUNT] = {count, names, format, NULL, NULL};
    PyObject *docs[NT_FN_COUNT] = {make_doc, replace_doc, NULL, NULL, NULL};
    int failed = count == NULL || replace_doc == NULL;
    for (int i = 0; !failed && i < NT_FN_COUNT; i++) {
        PyObject *function = nt_function(PyTuple_GET_ITEM(templates, i), i, typename, values[i]);
        if (function != NULL && docs[i] != NULL) {
            Py_XSETREF(((PyFunctionObject *)function)->func_doc, Py_NewRef(docs[i]));
        }
        PyObject *entry = function;
        if (function != NULL && i == NT_FN_MAKE) {
            entry = make_method(function, cls);
            Py_DECREF(function);
        }
        failed = entry == NULL || PyDict_SetItem(cls->tp_dict, nt_function_names[i], entry) < 0;
#if PY_VERSION_HEX >= 0x030D0000
        failed = failed
                 || (i == NT_FN_REPLACE && PyDict_SetItem(cls->tp_dict, str_dunder_replace, entry) < 0);
#endif
        Py_XDECREF(entry);
    }
    Py_XDECREF(replace_doc);
    Py_XDECREF(make_doc);
    Py_XDECREF(count);
    Py_DECREF(templates);
    return failed ? -1 : 0;
}

/* tp_repr of a class records built: its __repr__ called, as CPython's
 * slot calls it (found on the type, bound as a descriptor binds). */
static PyObject *
nt_repr_slot(PyObject *self)
{
    PyObject *found = lookup_ref(Py_TYPE(self), nt_function_names[NT_FN_REPR]);
    if (found == NULL) {
        return PyTuple_Type.tp_repr(self);
    }
    PyObject *result;
    if (PyFunction_Check(found)) {
        result = PyObject_Vectorcall(found, &self, 1, NULL);
    }
    else {
        descrgetfunc get = Py_TYPE(found)->tp_descr_get;
        PyObject *bound = get == NULL ? Py_NewRef(found) : get(found, self, (PyObject *)Py_TYPE(self));
        result = bound == NULL ? NULL : PyObject_CallNoArgs(bound);
        Py_XDECREF(bound);
    }
    Py_DECREF(found);
    return result;
}

/* The interned names of the functions, and MakeMethod, where classmethod
 * has the layout checked. */
static int
nt_functions_ready(void)
{
    if (MakeMethodType.tp_base == NULL && staticmethod_callable_offset >= 0) {
        MakeMethodType.tp_base = &PyClassMethod_Type;
        MakeMethodType.tp_basicsize
            = PyClassMethod_Type.tp_basicsize + (Py_ssize_t)sizeof(MakeMethodData);
        if (PyType_Ready(&MakeMethodType) < 0) {
            MakeMethodType.tp_base = NULL;
            return -1;
        }
    }
    for (int i = 0; i < NT_FN_COUNT; i++) {
        if (nt_function_names[i] == NULL
            && (nt_function_names[i] = PyUnicode_InternFromString(nt_function_texts[i])) == NULL) {
            return -1;
        }
    }
    return 0;
}
