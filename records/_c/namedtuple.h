/*
 * records.namedtuple's classes, built in C: the C twin of what
 * records/_namedtuple.py builds, which is collections.namedtuple's class.
 *
 * type() costs a class statement's work (its namespace walk, the slot table
 * looked up name by name): about a seventh of collections.namedtuple's time,
 * before any of the class is made. So the class is made from a PyType_Spec
 * built for the call, on the stack, with the slots every namedtuple class
 * shares (tp_traverse, and records' tp_dealloc), and tp_repr set to call
 * its __repr__. Then what is
 * the class's own is written into its dict: _fields, _field_defaults,
 * __match_args__, __doc__, __slots__ = (), the _tuplegetter accessors (as
 * CPython's own tests of namedtuple require: their docs are writable);
 * __new__: the Python function collections.namedtuple makes (same globals,
 * name, doc and defaults, from records' code cache instead of eval), held by
 * a Constructor, so that calls to the class take the C constructor; the
 * methods collections writes in Python, as Python functions whose calls run
 * C (namedtuple_functions.h); and records' additions, the C descriptors of
 * nt_methods (namedtuple_methods.h).
 *
 * A method acts as collections' closures do: on the values of the class
 * that made it (its closure), not on a subclass's _fields; _replace calls
 * self._make and _asdict reads self._fields, as theirs do, and each runs its
 * Python code wherever a subclass changed what it relies on (_make,
 * __iter__, pickling, __new__).
 *
 * Part of records/_c/accelerator.c, which includes it once, after the
 * builder and Record's methods; not compiled on its own.
 */

/* Where each method is in nt_methods: a descriptor is one records made when
 * its PyMethodDef is that entry. */
enum {
    NT_REDUCE_EX,
    NT_COPY,
    NT_DEEPCOPY,
    NT_RICH_REPR,
    NT_METHOD_COUNT
};
static PyMethodDef nt_methods[NT_METHOD_COUNT + 1];

/* The names of nt_methods, interned (nt_methods_ready). */
static PyObject *nt_method_names[NT_METHOD_COUNT];

static int nt_traverse(PyObject *self, visitproc visit, void *arg);

/* The methods that are Python functions, as collections' are
 * (namedtuple_functions.h), in the order of METHOD_TEMPLATES. */
enum { NT_FN_MAKE, NT_FN_REPLACE, NT_FN_REPR, NT_FN_ASDICT, NT_FN_GETNEWARGS, NT_FN_COUNT };
static int finds_nt_function(PyTypeObject *type, int index);
static int nt_add_functions(Builder *self, PyTypeObject *cls, PyObject *typename,
                            PyObject *names, PyObject *format);
static PyObject *nt_repr_slot(PyObject *self);

/* 1 if type finds name as the method records made of nt_methods[index], for
 * a namedtuple class it built (in *owner, borrowed, where not NULL). Names
 * are those of nt_method_names. */
static int
finds_nt_method(PyTypeObject *type, PyObject *name, int index, PyTypeObject **owner)
{
    PyObject *found = lookup_ref(type, name);
    int finds = found != NULL && is_nt_method(found)
                && ((NtMethodObject *)found)->method == &nt_methods[index];
    if (finds && owner != NULL) {
        *owner = ((NtMethodObject *)found)->owner; /* a base of type: it lives as long */
    }
    Py_XDECREF(found);
    return finds;
}

/* 1 if instances of type iterate as their tuple items do. */
static inline int
iterates_as_tuple(PyTypeObject *type)
{
    return type->tp_iter == PyTuple_Type.tp_iter;
}

/* self.__class__.__name__ + format % self, as collections' __repr__, for a
 * tuple self, whose items format takes as they are. */
static PyObject *
nt_repr_with(PyObject *self, PyObject *format)
{
    Py_INCREF(format); /* the item reprs may run any code */
    PyObject *text = NULL, *result = NULL;
    PyObject *cls = PyObject_GetAttr(self, str_class);
    PyObject *name = cls == NULL ? NULL : PyObject_GetAttr(cls, str_name);
    if (name != NULL) {
        text = PyUnicode_Format(format, self);
    }
    if (text != NULL) {
        result = PyNumber_Add(name, text); /* name may be any object, as in Python */
    }
    Py_XDECREF(text);
    Py_XDECREF(name);
    Py_XDECREF(cls);
    Py_DECREF(format);
    return result;
}

/* tuple.__new__(cls, values), whose len() must be count, as _make says. */
static PyObject *nt_checked_length(PyTypeObject *cls, PyObject *result, Py_ssize_t count);

static PyObject *
nt_make_from(PyTypeObject *cls, PyObject *values, Py_ssize_t count)
{
    PyObject *result = copy_record(cls, values);
    return result == NULL ? NULL : nt_checked_length(cls, result, count);
}

/* result, a new cls, if its len() is count, as _make checks it; else a
 * TypeError (result released either way). */
static PyObject *
nt_checked_length(PyTypeObject *cls, PyObject *result, Py_ssize_t count)
{
    Py_ssize_t got = PyTuple_GET_SIZE(result);
    PySequenceMethods *sequence = cls->tp_as_sequence;
    if (sequence == NULL || sequence->sq_length != PyTuple_Type.tp_as_sequence->sq_length) {
        got = PyObject_Length(result); /* a subclass's __len__, as _make calls len() */
        if (got < 0) {
            Py_DECREF(result);
            return NULL;
        }
    }
    if (got != count) {
        PyErr_Format(PyExc_TypeError, "Expected %zd arguments, got %zd", count, got);
        Py_DECREF(result);
        return NULL;
    }
    return result;
}

/* The error _replace raises for keywords that name no field: TypeError from
 * 3.13 on, ValueError before (UNKNOWN_FIELD_ERROR), as collections'. */
static void
unexpected_fields(PyObject *remaining)
{
    PyObject *listed = PyDict_Keys(remaining);
    if (listed != NULL) {
        PyErr_Format(UNKNOWN_FIELD_ERROR, "Got unexpected field names: %R", listed);
        Py_DECREF(listed);
    }
}

/* dict(zip(self._fields, self)) */
static PyObject *
nt_asdict(PyObject *self)
{
    PyObject *fields = PyObject_GetAttr(self, str_fields);
    if (fields == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (PyTuple_CheckExact(fields) && iterates_as_tuple(Py_TYPE(self))) {
        Py_ssize_t size = Py_MIN(PyTuple_GET_SIZE(fields), PyTuple_GET_SIZE(self));
        result = _PyDict_NewPresized(size);
        for (Py_ssize_t i = 0; result != NULL && i < size; i++) {
            /* A str subclass's hash may run code: fields and self hold the items. */
            if (PyDict_SetItem(result, PyTuple_GET_ITEM(fields, i), PyTuple_GET_ITEM(self, i)) < 0) {
                Py_CLEAR(result);
            }
        }
    }
    else {
        PyObject *pairs = PyObject_CallFunctionObjArgs((PyObject *)&PyZip_Type, fields, self, NULL);
        if (pairs != NULL) {
            result = PyObject_CallOneArg((PyObject *)&PyDict_Type, pairs);
            Py_DECREF(pairs);
        }
    }
    Py_DECREF(fields);
    return result;
}

/* tuple(self) */
static PyObject *
nt_getnewargs(PyObject *self)
{
    if (iterates_as_tuple(Py_TYPE(self))) {
        return PyTuple_GetSlice(self, 0, PyTuple_GET_SIZE(self));
    }
    return PySequence_Tuple(self);
}

/* object.__reduce_ex__(self, protocol), for what the fast path leaves. */
static PyObject *
object_reduce_ex(PyObject *self, PyObject *protocol)
{
    PyObject *method = _PyType_Lookup(&PyBaseObject_Type, str_reduce_ex);
    if (method == NULL) {
        PyErr_SetString(PyExc_SystemError, "object has no __reduce_ex__");
        return NULL;
    }
    Py_INCREF(method);
    PyObject *result = PyObject_CallFunctionObjArgs(method, self, protocol, NULL);
    Py_DECREF(method);
    return result;
}

static int nt_reduces_as_usual(PyObject *self);

/* What object.__reduce_ex__ returns for a named tuple from protocol 2 on,
 * (copyreg.__newobj__, (cls, *self), None, None, None), without its lookups;
 * the pickle is the same bytes. A subclass that pickles its own way, or has
 * instance attributes, and protocols 0 and 1 take object's. */
static PyObject *
nt_reduce_ex(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "__reduce_ex__() takes one argument, protocol");
        return NULL;
    }
    PyObject *protocol = args[0];
    if (!PyLong_CheckExact(protocol) || PyLong_AsLong(protocol) < 2
        || !nt_reduces_as_usual(self)) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        return object_reduce_ex(self, protocol);
    }
    /* sys.modules["copyreg"], as imported (object's way checks that no
     * import of it is under way, which pickling never interrupts). */
    PyObject *copyreg = loaded_module(str_copyreg);
    if (copyreg == NULL || !PyModule_CheckExact(copyreg)) {
        Py_XDECREF(copyreg);
        if (PyErr_Occurred()) {
            return NULL;
        }
        return object_reduce_ex(self, protocol); /* it imports copyreg */
    }
    /* copyreg.__newobj__, from the dict of the plain module (where a
     * getattr finds it), held before anything else runs. */
    PyObject *newobj = module_entry(copyreg, str_newobj);
    Py_DECREF(copyreg);
    if (newobj == NULL) {
        return PyErr_Occurred() ? NULL : object_reduce_ex(self, protocol);
    }
    PyObject *first[] = {(PyObject *)Py_TYPE(self)};
    PyObject *newargs = tuple_after(first, 1, self);
    PyObject *result = newargs == NULL ? NULL
                                       : PyTuple_Pack(5, newobj, newargs, Py_None, Py_None, Py_None);
    Py_XDECREF(newargs);
    Py_DECREF(newobj);
    return result;
}

/* nt_reduces_as_usual's part that depends on the class alone (no function's
 * code, which changes without the class): the __reduce_ex__ records made,
 * object's __reduce__ and __getstate__, no __getnewargs_ex__, iteration a
 * tuple's. */
static int
nt_class_reduces_as_usual(PyTypeObject *type)
{
    return finds_nt_method(type, nt_method_names[NT_REDUCE_EX], NT_REDUCE_EX, NULL)
           && _PyType_Lookup(type, str_reduce) == _PyType_Lookup(&PyBaseObject_Type, str_reduce)
           && _PyType_Lookup(type, str_getstate)
                  == _PyType_Lookup(&PyBaseObject_Type, str_getstate)
           && _PyType_Lookup(type, str_getnewargs_ex) == NULL && iterates_as_tuple(type);
}

/* 1 if pickling self (protocol 2 on) is what object.__reduce_ex__ does for
 * a class records built, no more: its __reduce_ex__ and __getnewargs__
 * (those records made, on the class or inherited), object's __reduce__ and
 * __getstate__, no __getnewargs_ex__, iteration a tuple's, and no instance
 * attributes (which would be the pickle's state). */
static int
nt_reduces_as_usual(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    return (checked_class_data(type) != NULL || nt_class_reduces_as_usual(type))
           && finds_nt_function(type, NT_FN_GETNEWARGS) && no_instance_attributes(self);
}

/* 1 if copy.copy(self) would be cls.__new__(cls, *self) without __copy__:
 * pickled as usual, no reducer in copyreg.dispatch_table for the class, and
 * a __new__ that makes a record of its arguments (-1 on error). What
 * depends on the class alone is checked once per version of the class. */
static int
nt_copies_as_usual(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    ConstructorData *checked = checked_class_data(type);
    if ((checked == NULL && !nt_class_reduces_as_usual(type))
        || !finds_nt_function(type, NT_FN_GETNEWARGS) || !no_instance_attributes(self)
        || !makes_record_of_arguments(type, PyTuple_GET_SIZE(self))) {
        return 0;
    }
    return no_copyreg_reducer(type, checked);
}

static PyObject *
nt_copy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 0 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "__copy__() takes no arguments");
        return NULL;
    }
    int usual = nt_copies_as_usual(self);
    if (usual <= 0) {
        return usual < 0 ? NULL : copy_by_reduce(self, Py_None);
    }
    return copy_record(Py_TYPE(self), self);
}

static PyObject *
nt_deepcopy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0)) {
        PyErr_SetString(PyExc_TypeError, "__deepcopy__() takes one argument, memo");
        return NULL;
    }
    int usual = nt_copies_as_usual(self);
    if (usual <= 0) {
        return usual < 0 ? NULL : copy_by_reduce(self, args[0]);
    }
    return deepcopy_items(self, args[0]);
}

/* rich's field-by-field layout, as rich gives collections' named tuples:
 * unless a subclass has a __repr__ of its own. */
static PyObject *
nt_rich_repr(PyObject *self, PyObject *unused)
{
    if (!finds_nt_function(Py_TYPE(self), NT_FN_REPR)) {
        Py_RETURN_NONE; /* a __repr__ of the class's own */
    }
    PyObject *fields = PyObject_GetAttr(self, str_fields);
    if (fields == NULL) {
        return NULL;
    }
    PyObject *pairs = PyObject_CallFunctionObjArgs((PyObject *)&PyZip_Type, fields, self, NULL);
    Py_DECREF(fields);
    return pairs;
}

/* The methods records adds to collections' class, in C. */
static PyMethodDef nt_methods[NT_METHOD_COUNT + 1] = {
    {"__reduce_ex__", (PyCFunction)(void (*)(void))nt_reduce_ex, METH_FASTCALL | METH_KEYWORDS,
     "__reduce_ex__($self, protocol, /)\n--\n\nHelper for pickle."},
    {"__copy__", (PyCFunction)(void (*)(void))nt_copy, METH_FASTCALL | METH_KEYWORDS,
     "__copy__($self, /)\n--\n\nReturn a new named tuple of the same class with the same items."},
    {"__deepcopy__", (PyCFunction)(void (*)(void))nt_deepcopy, METH_FASTCALL | METH_KEYWORDS,
     "__deepcopy__($self, memo, /)\n--\n\nReturn a new named tuple of deep copies of the items."},
    {"__rich_repr__", nt_rich_repr, METH_NOARGS,
     "__rich_repr__($self, /)\n--\n\n"
     "Lay the named tuple out field by field in rich's pretty printer."},
    {NULL, NULL, 0, NULL},
};

_Static_assert(sizeof(nt_methods) / sizeof(nt_methods[0]) == NT_METHOD_COUNT + 1,
               "nt_methods and its indices agree");

/* A tuple's traverse, and the class: an instance holds a reference to its
 * heap type, which the collector must see to free a class that its own
 * instances keep alive (P.ORIGIN = P(0, 0)). */
static int
nt_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    return PyTuple_Type.tp_traverse(self, visit, arg);
}

/* prefix, then each of names followed by between (but the last by after),
 * then suffix: one str, written at once. */
static PyObject *
nt_joined(const char *prefix, PyObject *names, const char *between, const char *after,
          const char *suffix)
{
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    size_t fixed = strlen(prefix) + strlen(suffix) + (count ? strlen(after) : 0)
                   + (count > 1 ? (size_t)(count - 1) * strlen(between) : 0);
    Py_ssize_t length = (Py_ssize_t)fixed;
    Py_UCS4 widest = 127;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        length += PyUnicode_GET_LENGTH(name);
        widest = Py_MAX(widest, PyUnicode_MAX_CHAR_VALUE(name));
    }
    PyObject *text = PyUnicode_New(length, widest);
    if (text == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (const char *c = prefix; *c; c++) {
        PyUnicode_WriteChar(text, at++, (Py_UCS4)(unsigned char)*c);
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        PyUnicode_CopyCharacters(text, at, name, 0, PyUnicode_GET_LENGTH(name));
        at += PyUnicode_GET_LENGTH(name);
        for (const char *c = i + 1 < count ? between : after; *c; c++) {
            PyUnicode_WriteChar(text, at++, (Py_UCS4)(unsigned char)*c);
        }
    }
    for (const char *c = suffix; *c; c++) {
        PyUnicode_WriteChar(text, at++, (Py_UCS4)(unsigned char)*c);
    }
    return text;
}

/* "(x=%r, y=%r)": the format of the repr of a namedtuple of fields names. */
static PyObject *
nt_repr_format(PyObject *names)
{
    return nt_joined("(", names, "=%r, ", "=%r", ")");
}

/* "(x, y)", or "(x,)" for one field: collections' arg_list in brackets. */
static PyObject *
nt_arguments(PyObject *names)
{
    return nt_joined("(", names, ", ", PyTuple_GET_SIZE(names) == 1 ? "," : "", ")");
}

/* The __new__ of the class: collections.namedtuple's function, from the
 * code cache, with globals {_tuple_new, __builtins__: {}, __name__:
 * "namedtuple_<typename>"}, held by a Constructor. */
static PyObject *
nt_new(Builder *self, PyObject *typename, PyObject *parameters, PyObject *defaults,
       PyObject *arguments)
{
    PyObject *globals = NULL, *code = NULL, *qualname = NULL, *function = NULL, *result = NULL;
    PyObject *module = NULL, *doc = NULL, *signature = NULL;
    if ((globals = PyDict_Copy(self->base_globals)) == NULL
        || (module = PyUnicode_Concat(str_namedtuple_prefix, typename)) == NULL
        || PyDict_SetItem(globals, str_name, module) < 0
        || (code = constructor_code(self, parameters, empty_tuple, 0)) == NULL
        || no_free_variables(code) < 0
        || (qualname = PyUnicode_Concat(typename, str_dot_new)) == NULL
        || (function = PyFunction_NewWithQualName(code, globals, qualname)) == NULL
        || (signature = PyUnicode_Concat(typename, arguments)) == NULL
        || (doc = PyUnicode_Concat(str_create_new, signature)) == NULL) {
        goto done;
    }
    Py_XSETREF(((PyFunctionObject *)function)->func_doc, Py_NewRef(doc));
    if (defaults != Py_None && PyFunction_SetDefaults(function, defaults) < 0) {
        goto done;
    }
    result = make_constructor(function, parameters, NULL, self->factory_marker);

done:
    Py_XDECREF(signature);
    Py_XDECREF(doc);
    Py_XDECREF(function);
    Py_XDECREF(qualname);
    Py_XDECREF(code);
    Py_XDECREF(module);
    Py_XDECREF(globals);
    return result;
}

/* The attributes of the class that are its own, into its dict. */
static int
nt_fill(Builder *self, PyTypeObject *cls, PyObject *typename, PyObject *names,
        PyObject *defaults, PyObject *arguments, PyObject *module)
{
    PyObject *namespace = cls->tp_dict;
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    if (PyList_GET_SIZE(self->docs) < count) {
        PyObject *grown = PyObject_CallFunction(self->default_docs, "n", count);
        if (grown == NULL) {
            return -1;
        }
        Py_DECREF(grown);
        if (PyList_GET_SIZE(self->docs) < count) { /* the list was not the one grown */
            PyErr_SetString(PyExc_RuntimeError, "records' list of field docs was replaced");
            return -1;
        }
    }
    PyObject *field_defaults = PyDict_New();
    if (field_defaults == NULL) {
        return -1;
    }
    Py_ssize_t ndefaults = defaults == Py_None ? 0 : PyTuple_GET_SIZE(defaults);
    for (Py_ssize_t i = 0; i < ndefaults; i++) {
        if (PyDict_SetItem(field_defaults, PyTuple_GET_ITEM(names, count - ndefaults + i),
                           PyTuple_GET_ITEM(defaults, i)) < 0) {
            Py_DECREF(field_defaults);
            return -1;
        }
    }
    PyObject *doc = PyUnicode_Concat(typename, arguments);
    int failed = doc == NULL || PyDict_SetItem(namespace, str_doc_attribute, doc) < 0
                 || (module != Py_None && PyDict_SetItem(namespace, str_module, module) < 0)
                 || PyDict_SetItem(namespace, str_slots, empty_tuple) < 0
                 || PyDict_SetItem(namespace, str_fields, names) < 0
                 || PyDict_SetItem(namespace, str_field_defaults, field_defaults) < 0
                 || PyDict_SetItem(namespace, str_match_args, names) < 0;
    Py_XDECREF(doc);
    Py_DECREF(field_defaults);
    PyObject *scratch = NULL;
    /* accessor() may be any Python callable, which may change the list: it
     * is held, and its length checked, before each item is taken. */
    PyObject *docs = Py_NewRef(self->docs);
    for (Py_ssize_t i = 0; !failed && i < count; i++) {
        if (PyList_GET_SIZE(docs) <= i) {
            PyErr_SetString(PyExc_RuntimeError, "records' list of field docs was replaced");
            failed = 1;
            break;
        }
        PyObject *field_doc = Py_NewRef(PyList_GET_ITEM(docs, i));
        PyObject *index = PyLong_FromSsize_t(i);
        PyObject *accessor = index == NULL ? NULL
                                           : make_accessor(self, &scratch, index, field_doc);
        Py_XDECREF(index);
        Py_DECREF(field_doc);
        failed = accessor == NULL
                 || PyDict_SetItem(namespace, PyTuple_GET_ITEM(names, i), accessor) < 0;
        Py_XDECREF(accessor);
    }
    Py_DECREF(docs);
    Py_XDECREF(scratch);
    return failed ? -1 : 0;
}

/* The methods of nt_methods, as descriptors of cls, into its dict. */
static int
nt_add_methods(PyTypeObject *cls, PyObject *names)
{
    for (int i = 0; i < NT_METHOD_COUNT; i++) {
        PyObject *descr = new_nt_method(&NtMethodType, &nt_methods[i], cls, names);
        int failed = descr == NULL || PyDict_SetItem(cls->tp_dict, nt_method_names[i], descr) < 0;
        Py_XDECREF(descr);
        if (failed) {
            return -1;
        }
    }
    return 0;
}

/* The interned names of nt_methods, and the types of their descriptors. */
static int
nt_methods_ready(void)
{
    for (int i = 0; i < NT_METHOD_COUNT; i++) {
        if (nt_method_names[i] == NULL
            && (nt_method_names[i] = PyUnicode_InternFromString(nt_methods[i].ml_name)) == NULL) {
            return -1;
        }
    }
    return nt_method_types_ready();
}

/* CPython's tp_new for a class with a __new__ in its dict, as a probe class
 * showed it (type.__setattr__ gives a class that one); NULL until needed. */
static newfunc python_new_slot;

/* cls.__new__ = new, as type.__setattr__ sets it, without its search of the
 * slots a name may update: the dict entry, and CPython's own tp_new for it,
 * as a probe class made by type() has it. Where the probe does not show
 * one, type.__setattr__ itself. */
static int
nt_set_new(PyTypeObject *cls, PyObject *new)
{
    if (LOAD_PTR(python_new_slot) == NULL) {
        PyObject *probe = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){sOsO}",
                                                "_RecordsNewProbe", (PyObject *)&PyTuple_Type,
                                                "__new__", new, "__slots__", empty_tuple);
        if (probe == NULL) {
            return -1;
        }
        newfunc found = ((PyTypeObject *)probe)->tp_new;
        Py_DECREF(probe);
        if (found == NULL || found == PyTuple_Type.tp_new) {
            return PyObject_SetAttr((PyObject *)cls, str_new, new);
        }
        store_once((void **)&python_new_slot, (void *)found);
    }
    if (PyDict_SetItem(cls->tp_dict, str_new, new) < 0) {
        return -1;
    }
    cls->tp_new = (newfunc)LOAD_PTR(python_new_slot);
    return 0;
}

/* The class of records.namedtuple for names already checked: typename and
 * names interned str, parameters the fields as the parser reads them,
 * defaults a tuple or None, module the __module__ to set, or None. */
static PyObject *
nt_class(Builder *self, PyObject *typename, PyObject *names, PyObject *parameters,
         PyObject *defaults, PyObject *module)
{
    /* Dotted, as CPython wants a spec's name, with the module of the pure
     * path's type() call: then tp_name becomes the class's own name. */
    PyObject *dotted = PyUnicode_Concat(str_namedtuple_module, typename);
    const char *name = dotted == NULL ? NULL : PyUnicode_AsUTF8(dotted);
    if (name == NULL) {
        Py_XDECREF(dotted);
        return NULL;
    }
    PyType_Slot slots[] = {
        {Py_tp_traverse, (void *)nt_traverse},
        {Py_tp_dealloc, (void *)record_dealloc}, /* no dict, no weak references, no slots */
        {0, NULL},
    };
    PyType_Spec spec = {
        .name = name,
        .basicsize = 0, /* a tuple's, items and all */
        .itemsize = 0,
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, /* a tuple's */
        .slots = slots,
    };
    PyObject *new = NULL;
    PyTypeObject *cls = (PyTypeObject *)PyType_FromSpecWithBases(&spec, self->tuple_bases);
    Py_DECREF(dotted);
    if (cls == NULL) {
        return NULL;
    }
    /* tp_name is the spec's (up to 3.11, its very buffer): the class's own
     * name instead, as type() gives it, held by the class. */
    cls->tp_name = PyUnicode_AsUTF8(((PyHeapTypeObject *)cls)->ht_name);
    if (cls->tp_name == NULL) {
        goto error;
    }
    PyObject *format = nt_repr_format(names);
    PyObject *arguments = format == NULL ? NULL : nt_arguments(names);
    /* __new__ before the methods, in the dict: see constructor_reduce. */
    int failed = arguments == NULL
                 || nt_fill(self, cls, typename, names, defaults, arguments, module) < 0
                 || (new = nt_new(self, typename, parameters, defaults, arguments)) == NULL
                 || nt_set_new(cls, new) < 0
                 || nt_add_functions(self, cls, typename, names, format) < 0
                 || nt_add_methods(cls, names) < 0;
    Py_XDECREF(arguments);
    Py_XDECREF(format);
    if (failed) {
        goto error;
    }
    Py_DECREF(new);
    /* repr() calls __repr__, as for a __repr__ that type() finds in a
     * class's dict (the spec's class has tuple's). */
    cls->tp_repr = nt_repr_slot;
    PyType_Modified(cls);
    enable_constructor(cls);
    if (!LOAD_INT(self->dill_registered)) {
        PyObject *registered = registered_with_dill(self);
        if (registered == NULL) {
            Py_DECREF(cls);
            return NULL;
        }
        Py_DECREF(registered);
    }
    return (PyObject *)cls;

error:
    Py_XDECREF(new);
    Py_DECREF(cls);
    return NULL;
}

/* Builder.namedtuple_class(typename, fields, parameters, defaults, module):
 * nt_class, for records/_namedtuple.py once it has checked the names. */
static PyObject *
builder_namedtuple_class(PyObject *builder, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyUnicode_CheckExact(args[0]) || !PyTuple_CheckExact(args[1])
        || !PyTuple_CheckExact(args[2]) || PyTuple_GET_SIZE(args[1]) != PyTuple_GET_SIZE(args[2])
        || (args[3] != Py_None && !PyTuple_CheckExact(args[3]))
        || (args[3] != Py_None && PyTuple_GET_SIZE(args[3]) > PyTuple_GET_SIZE(args[1]))) {
        PyErr_SetString(PyExc_TypeError,
                        "namedtuple_class() takes a typename, fields, parameters, defaults "
                        "and a module");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[1]); i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(args[1], i))
            || !PyUnicode_CheckExact(PyTuple_GET_ITEM(args[2], i))) {
            PyErr_SetString(PyExc_TypeError, "namedtuple_class() fields must be str");
            return NULL;
        }
    }
    if (builds_ready((Builder *)builder) < 0) {
        return NULL;
    }
    return nt_class((Builder *)builder, args[0], args[1], args[2], args[3], args[4]);
}

/* 1 if name is a field name that every check of collections.namedtuple
 * passes as it is: an exact ASCII str, an identifier, no keyword, no
 * leading underscore. 0 if it may not (records/_namedtuple.py decides and
 * words the error); -1 on error. No Python code runs here. */
static int
nt_plain_name(Builder *self, PyObject *name, int field)
{
    if (!PyUnicode_CheckExact(name) || !PyUnicode_IS_ASCII(name)
        || PyUnicode_GET_LENGTH(name) == 0 || PyUnicode_IsIdentifier(name) != 1
        || (field && PyUnicode_READ_CHAR(name, 0) == '_')) {
        return 0;
    }
    return !is_python_keyword(name);
}

/* Up to this many field names are compared pairwise for a repeated one. */
#define NT_FEW_NAMES 16

/* The field names of a call, interned, where they are plain (nt_plain_name)
 * and distinct: a string split as collections splits it, or an exact list
 * or tuple of str. NULL without an error where records/_namedtuple.py is to
 * take the call (or with one). */
static PyObject *
nt_plain_names(Builder *self, PyObject *field_names)
{
    PyObject *names = NULL;
    if (PyUnicode_CheckExact(field_names)) {
        PyObject *comma = PyUnicode_FromString(","), *space = PyUnicode_FromString(" ");
        PyObject *spaced = comma == NULL || space == NULL
                               ? NULL
                               : PyUnicode_Replace(field_names, comma, space, -1);
        PyObject *split = spaced == NULL ? NULL : PyUnicode_Split(spaced, NULL, -1);
        names = split == NULL ? NULL : PyList_AsTuple(split);
        Py_XDECREF(split);
        Py_XDECREF(spaced);
        Py_XDECREF(space);
        Py_XDECREF(comma);
    }
    else if (PyList_CheckExact(field_names) || PyTuple_CheckExact(field_names)) {
        names = PySequence_Tuple(field_names);
    }
    else {
        return NULL;
    }
    if (names == NULL) {
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    /* Past a few names, a set finds a repeated one in linear time. */
    PyObject *seen = count > NT_FEW_NAMES ? PySet_New(NULL) : NULL;
    if (count > NT_FEW_NAMES && seen == NULL) {
        Py_DECREF(names);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        int plain = nt_plain_name(self, name, 1);
        if (plain == 1 && seen != NULL) {
            int repeated = PySet_Contains(seen, name);
            plain = repeated < 0 || (!repeated && PySet_Add(seen, name) < 0) ? -1 : !repeated;
        }
        for (Py_ssize_t j = 0; plain == 1 && seen == NULL && j < i; j++) {
            int same = PyUnicode_Compare(PyTuple_GET_ITEM(names, j), name);
            plain = same == -1 && PyErr_Occurred() ? -1 : same != 0;
        }
        if (plain != 1) {
            Py_XDECREF(seen);
            Py_DECREF(names);
            return NULL; /* with the error, if there is one */
        }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        Py_SETREF(((PyTupleObject *)names)->ob_item[i], name);
    }
    Py_XDECREF(seen);
    return names;
}

/* The module namedtuple's caller runs in, as collections.namedtuple finds
 * it: sys._getframemodulename(1) or "__main__" from 3.12 on, and where that
 * is missing (and before 3.12) the caller's globals' __name__, or
 * "__main__"; None where there is no caller's frame. The caller is that of
 * the Python function that calls this. */
static PyObject *
nt_caller_module(void)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *find = PySys_GetObject("_getframemodulename"); /* borrowed */
    if (find != NULL) {
        Py_INCREF(find);
        PyObject *depth = PyLong_FromLong(1);
        PyObject *found = depth == NULL ? NULL : PyObject_CallOneArg(find, depth);
        Py_XDECREF(depth);
        Py_DECREF(find);
        int truth = found == NULL ? -1 : PyObject_IsTrue(found);
        if (truth < 0) {
            Py_XDECREF(found);
            return NULL;
        }
        if (!truth) {
            Py_SETREF(found, PyUnicode_FromString("__main__"));
        }
        return found;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
#endif
    PyFrameObject *frame = PyEval_GetFrame(); /* borrowed: the Python caller's */
    PyFrameObject *caller = frame == NULL ? NULL : PyFrame_GetBack(frame);
    if (caller == NULL) {
        return Py_NewRef(Py_None);
    }
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *globals = PyFrame_GetGlobals(caller);
#else
    PyObject *globals = Py_XNewRef(caller->f_globals);
#endif
    Py_DECREF(caller);
    PyObject *name = NULL;
    if (globals != NULL) {
        dict_get_ref(globals, str_name, &name);
    }
    PyObject *result = name != NULL ? name
                       : PyErr_Occurred() ? NULL
                                          : PyUnicode_FromString("__main__");
    Py_XDECREF(globals);
    return result;
}

/* Builder.namedtuple(typename, field_names, rename, defaults, module): the
 * class of records.namedtuple(typename, field_names, rename=rename,
 * defaults=defaults, module=module), for a call whose every name is plain
 * (typename and fields: nt_plain_name), rename False, defaults None or a
 * list or tuple no longer than the fields. None, having touched nothing,
 * for any other call: records/_namedtuple.py takes it, and words every
 * error. Called by that function, whose caller's module it finds. */
static PyObject *
builder_namedtuple(PyObject *builder, PyObject *const *args, Py_ssize_t nargs)
{
    Builder *self = (Builder *)builder;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "namedtuple() takes typename, field_names, rename, defaults, module");
        return NULL;
    }
    if (builds_ready(self) < 0) {
        return NULL;
    }
    PyObject *typename = args[0], *field_names = args[1], *defaults = args[3];
    if (args[2] != Py_False
        || (defaults != Py_None && !PyTuple_CheckExact(defaults) && !PyList_CheckExact(defaults))) {
        Py_RETURN_NONE;
    }
    int plain = nt_plain_name(self, typename, 0);
    if (plain != 1) {
        return plain < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *names = nt_plain_names(self, field_names);
    if (names == NULL) {
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
    }
    PyObject *defaults_tuple = defaults == Py_None ? Py_NewRef(Py_None) : PySequence_Tuple(defaults);
    PyObject *module = args[4] == Py_None ? nt_caller_module() : Py_NewRef(args[4]);
    PyObject *result = NULL;
    if (defaults_tuple != NULL && module != NULL) {
        if (defaults_tuple != Py_None && PyTuple_GET_SIZE(defaults_tuple) > PyTuple_GET_SIZE(names)) {
            result = Py_NewRef(Py_None); /* "Got more default values than field names" */
        }
        else {
            Py_INCREF(typename);
            PyUnicode_InternInPlace(&typename);
            result = nt_class(self, typename, names, names, defaults_tuple, module);
            Py_DECREF(typename);
        }
    }
    Py_XDECREF(module);
    Py_XDECREF(defaults_tuple);
    Py_DECREF(names);
    return result;
}
