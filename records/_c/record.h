/*
 * The C twins of the Record methods marked @c_twin in records/_record.py
 * (record_method_defs; record_sizeof is in members.h), with their results
 * and messages (taken from records/_rules.py on the error paths). The
 * decorator puts each in the Record class while the class is made, as a
 * method descriptor of it (record_method).
 *
 * Part of records/_c/accelerator.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */

/* The record's _fields, as a tuple (new reference), or NULL with an error. */
static PyObject *
fields_of(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    /* Without an instance dict or an attribute hook of its own, self._fields
     * is what the class has, when that is a tuple (not a descriptor). */
    if (type->tp_getattro == PyObject_GenericGetAttr && type->tp_dictoffset == 0
#if PY_VERSION_HEX >= 0x030C0000
        && !(type->tp_flags & Py_TPFLAGS_MANAGED_DICT)
#endif
    ) {
        PyObject *found = lookup_ref(type, str_fields);
        if (found != NULL && PyTuple_CheckExact(found)) {
            return found;
        }
        Py_XDECREF(found);
    }
    PyObject *fields = PyObject_GetAttr(self, str_fields);
    if (fields != NULL && !PyTuple_Check(fields)) {
        Py_SETREF(fields, PySequence_Tuple(fields));
    }
    return fields;
}

/* A new record of cls with the items of tuple source (new references). */
static PyObject *
copy_record(PyTypeObject *cls, PyObject *source)
{
    Py_ssize_t size = PyTuple_GET_SIZE(source);
    PyObject *record = cls->tp_alloc(cls, size);
    if (record == NULL) {
        return NULL;
    }
    reset_hash_cache(record);
    for (Py_ssize_t i = 0; i < size; i++) {
        ((PyTupleObject *)record)->ob_item[i] = Py_NewRef(PyTuple_GET_ITEM(source, i));
    }
    return record;
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
        PyErr_Format(PyExc_TypeError,
                     "Record._replace() takes 1 positional argument but %zd were given", nargs + 1);
        return NULL;
    }
    PyObject *fields = fields_of(self);
    if (fields == NULL) {
        return NULL;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(self);
    if (size != PyTuple_GET_SIZE(fields)) {
        raise_rule(PyExc_TypeError, "wrong_size_message", "(Onn)",
                   ((PyHeapTypeObject *)Py_TYPE(self))->ht_name, size, PyTuple_GET_SIZE(fields));
        Py_DECREF(fields);
        return NULL;
    }
    /* Where each keyword goes, checked before the record exists. */
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    Py_ssize_t small[SMALL_RECORD];
    Py_ssize_t *indexes = nkw <= SMALL_RECORD ? small : PyMem_New(Py_ssize_t, nkw);
    PyObject *unknown = NULL, *record = NULL;
    if (indexes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        indexes[k] = field_index(fields, size, name);
        if (indexes[k] < 0
            && ((unknown == NULL && (unknown = PyList_New(0)) == NULL)
                || PyList_Append(unknown, name) < 0)) {
            goto done;
        }
    }
    if (unknown != NULL) {
        raise_rule(UNKNOWN_FIELD_ERROR, "unexpected_fields_message", "(O)", unknown);
        goto done;
    }
    /* No Python code runs from here to the last item. */
    record = copy_record(Py_TYPE(self), self);
    for (Py_ssize_t k = 0; record != NULL && k < nkw; k++) {
        Py_SETREF(((PyTupleObject *)record)->ob_item[indexes[k]], Py_NewRef(args[k]));
    }

done:
    if (indexes != small) {
        PyMem_Free(indexes);
    }
    Py_XDECREF(unknown);
    Py_DECREF(fields);
    return record;
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
    for (Py_ssize_t i = 0; result != NULL && i < size; i++) {
        /* Hashing a field name that is a str subclass may run Python code:
         * the fields tuple is held, and self holds its items. */
        if (PyDict_SetItem(result, PyTuple_GET_ITEM(fields, i), PyTuple_GET_ITEM(self, i)) < 0) {
            Py_CLEAR(result);
        }
    }
    Py_DECREF(fields);
    return result;
}

/* "name=value" for each field, joined by ", ", in "Class(...)". */
static PyObject *
repr_items(PyObject *self, PyObject *name, PyObject *fields)
{
    Py_ssize_t size = Py_MIN(PyTuple_GET_SIZE(fields), PyTuple_GET_SIZE(self));
    PyObject *parts = PyList_New(size);
    if (parts == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        if (!PyUnicode_Check(field)) {
            PyErr_SetString(PyExc_TypeError, "_fields must hold str");
            Py_DECREF(parts);
            return NULL;
        }
        PyObject *part = PyUnicode_FromFormat("%U=%R", field, PyTuple_GET_ITEM(self, i));
        if (part == NULL) {
            Py_DECREF(parts);
            return NULL;
        }
        PyList_SET_ITEM(parts, i, part);
    }
    PyObject *separator = PyUnicode_FromString(", ");
    PyObject *joined = separator == NULL ? NULL : PyUnicode_Join(separator, parts);
    Py_XDECREF(separator);
    Py_DECREF(parts);
    if (joined == NULL) {
        return NULL;
    }
    PyObject *result = PyUnicode_FromFormat("%U(%U)", name, joined);
    Py_DECREF(joined);
    return result;
}

static PyObject *
record_repr(PyObject *self, PyObject *unused)
{
    int running = Py_ReprEnter(self);
    if (running != 0) {
        return running > 0 ? PyUnicode_FromString("...") : NULL;
    }
    PyObject *fields = NULL, *name = NULL, *result = NULL;
    PyObject *cls = PyObject_GetAttr(self, str_class);
    if (cls == NULL || (name = PyObject_GetAttr(cls, str_name)) == NULL
        || (fields = fields_of(self)) == NULL) {
        goto done;
    }
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "__name__ must be a str");
        goto done;
    }
    result = repr_items(self, name, fields);

done:
    Py_XDECREF(fields);
    Py_XDECREF(name);
    Py_XDECREF(cls);
    Py_ReprLeave(self);
    return result;
}

static PyObject *
record_make(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs + nkw != 1
        || (nkw == 1
            && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "iterable") != 0)) {
        PyErr_Format(PyExc_TypeError, "_make() takes exactly one argument, iterable (%zd given)",
                     nargs + nkw);
        return NULL;
    }
    PyObject *iterable = args[0];
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "_make() needs a record class");
        return NULL;
    }
    /* Only subclasses of Record get here (the classmethod descriptor checks),
     * all heap types; a static type's tp_dict is not to be read from 3.12. */
    int built = PyType_HasFeature((PyTypeObject *)cls, Py_TPFLAGS_HEAPTYPE)
                    ? PyDict_Contains(((PyTypeObject *)cls)->tp_dict, str_record_built)
                    : 0;
    if (built <= 0) {
        if (built == 0) {
            /* records._codegen.incomplete(cls): raises if cls declares
             * fields of its own (imported here before any class is built). */
            PyObject *codegen = records_module(str_codegen);
            PyObject *done = codegen == NULL ? NULL
                                             : PyObject_CallMethod(codegen, "incomplete", "O", cls);
            Py_XDECREF(codegen);
            if (done == NULL) {
                return NULL;
            }
            Py_DECREF(done);
            /* Record itself, the one class that holds this twin as its own
             * _make, is abstract, as its __new__ says (_record.Record._make). */
            PyObject *own;
            if (dict_get_ref(((PyTypeObject *)cls)->tp_dict, str_make, &own) < 0) {
                return NULL;
            }
            int abstract = own != NULL && Py_IS_TYPE(own, &PyClassMethodDescr_Type)
                           && ((PyMethodDescrObject *)own)->d_method->ml_meth
                                  == (PyCFunction)(void (*)(void))record_make;
            Py_XDECREF(own);
            if (abstract) {
                raise_rule(PyExc_TypeError, "abstract_record_message", "()");
                return NULL;
            }
        }
        else {
            return NULL;
        }
    }
    PyObject *values = PySequence_Tuple(iterable);
    if (values == NULL) {
        return NULL;
    }
    PyObject *fields = PyObject_GetAttr(cls, str_fields);
    Py_ssize_t expected = fields == NULL ? -1 : PyObject_Length(fields);
    Py_XDECREF(fields);
    PyObject *record = NULL;
    if (expected >= 0) {
        Py_ssize_t got = PyTuple_GET_SIZE(values);
        if (got != expected) {
            raise_rule(PyExc_TypeError, "wrong_length_message", "(nn)", expected, got);
        }
        else {
            record = copy_record((PyTypeObject *)cls, values);
        }
    }
    Py_DECREF(values);
    return record;
}

/* 1 if the instance dict of self, if it has one, is empty. */
static int
no_instance_attributes(PyObject *self)
{
    PyObject **dict = _PyObject_GetDictPtr(self);
    return dict == NULL || *dict == NULL || PyDict_GET_SIZE(*dict) == 0;
}

static PyObject *record_reduce(PyObject *self, PyObject *unused);

/* 1 if descriptor is the C __reduce__ of a Record class (record_reduce). */
static inline int
is_record_reduce(PyObject *descriptor)
{
    return descriptor != NULL && Py_IS_TYPE(descriptor, &PyMethodDescr_Type)
           && ((PyMethodDescrObject *)descriptor)->d_method->ml_meth == record_reduce;
}

/* The Record class whose methods type inherits (borrowed): the owner of the
 * C __reduce__ that type finds, or, where type has a __reduce__ of its own,
 * the first class of its MRO that holds the C one. NULL if none does. No
 * Python code runs here. */
static PyTypeObject *
record_base_of(PyTypeObject *type)
{
    PyObject *found = _PyType_Lookup(type, str_reduce); /* identity only */
    if (is_record_reduce(found)) {
        return PyDescr_TYPE(found);
    }
    PyObject *mro = type->tp_mro;
    for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        PyObject *own = base->tp_dict == NULL ? NULL : PyDict_GetItemWithError(base->tp_dict, str_reduce);
        if (is_record_reduce(own)) {
            return base;
        }
    }
    PyErr_Clear();
    return NULL;
}

/* 1 if records of type are pickled and copied as Record's methods make
 * them, as far as the class tells: no __reduce__, __reduce_ex__ or
 * __getnewargs__ of its own in the class or its bases (its __reduce__ is
 * Record's C one, its __getnewargs__ that Record class's). An instance with
 * a __dict__ (an enum member, a record whose layout could not be sealed)
 * must also have nothing in it (no_instance_attributes). */
static int
class_reduces_as_usual(PyTypeObject *type)
{
    PyObject *reduce = _PyType_Lookup(type, str_reduce); /* identity only */
    return is_record_reduce(reduce)
           && _PyType_Lookup(type, str_getnewargs)
                  == _PyType_Lookup(PyDescr_TYPE(reduce), str_getnewargs)
           && _PyType_Lookup(type, str_reduce_ex)
                  == _PyType_Lookup(&PyBaseObject_Type, str_reduce_ex);
}

/* copyreg.dispatch_table, a new reference, or NULL (with an error, or none:
 * copyreg is not imported). */
static PyObject *
copyreg_dispatch_table(void)
{
    PyObject *copyreg = loaded_module(str_copyreg);
    if (copyreg == NULL) {
        return NULL;
    }
    PyObject *table = module_entry(copyreg, str_dispatch_table);
    Py_DECREF(copyreg);
    if (table != NULL && !PyDict_Check(table)) {
        Py_CLEAR(table);
    }
    return table;
}

/* What copy.copy (memo None) and copy.deepcopy do for an object without
 * __copy__ or __deepcopy__: the reducer copyreg.dispatch_table has for its
 * class, else self.__reduce_ex__(4); self itself for a str; then
 * copy._reconstruct(self, memo, *reduced). For a record whose class pickles
 * it its own way. */
static PyObject *
copy_by_reduce(PyObject *self, PyObject *memo)
{
    PyObject *copy = PyImport_ImportModule("copy");
    PyObject *reconstruct = copy == NULL ? NULL : PyObject_GetAttrString(copy, "_reconstruct");
    Py_XDECREF(copy);
    if (reconstruct == NULL) {
        return NULL;
    }
    PyObject *reduced = NULL, *table = copyreg_dispatch_table();
    PyObject *reducer = NULL;
    if (table != NULL) {
        dict_get_ref(table, (PyObject *)Py_TYPE(self), &reducer);
        Py_DECREF(table);
    }
    if (reducer != NULL) {
        reduced = PyObject_CallOneArg(reducer, self);
        Py_DECREF(reducer);
    }
    else if (!PyErr_Occurred()) {
        reduced = PyObject_CallMethod(self, "__reduce_ex__", "i", 4);
    }
    PyObject *result = NULL;
    if (reduced != NULL && PyUnicode_Check(reduced)) {
        result = Py_NewRef(self);
    }
    else if (reduced != NULL) {
        PyObject *items = PySequence_Tuple(reduced);
        PyObject *first[] = {self, memo};
        PyObject *arguments = items == NULL ? NULL : tuple_after(first, 2, items);
        if (arguments != NULL) {
            result = PyObject_Call(reconstruct, arguments, NULL);
        }
        Py_XDECREF(arguments);
        Py_XDECREF(items);
    }
    Py_XDECREF(reduced);
    Py_DECREF(reconstruct);
    return result;
}

/* The class's ConstructorData, where its __new__ is a Constructor (borrowed:
 * read before any Python code runs), else NULL. */
static inline ConstructorData *
constructor_data_of(PyTypeObject *type)
{
    PyObject *found = _PyType_Lookup(type, str_new);
    return found != NULL && Py_IS_TYPE(found, &ConstructorType) ? CONSTRUCTOR_DATA(found) : NULL;
}

/* The version tag of type, which CPython changes whenever the class or one
 * of its bases changes; 0 where it has none that is valid now (up to 3.12 a
 * flag says whether the tag is valid; from 3.13 on, 0 is the invalid tag). */
static inline unsigned int
class_version(PyTypeObject *type)
{
#if PY_VERSION_HEX < 0x030D0000
    if (!PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        return 0;
    }
#endif
    return type->tp_version_tag;
}

/* 1 if copyreg's dispatch_table (table, borrowed) has a reducer for type,
 * 0 if not, -1 on error. The table is held while the type's hash runs. */
static int
table_has_reducer(PyObject *table, PyTypeObject *type)
{
    Py_INCREF(table);
    int found = PyDict_Contains(table, (PyObject *)type);
    Py_DECREF(table);
    return found;
}

/* What copying a class's records checks on the class alone (its pickling
 * methods: class_reduces_as_usual, nt_class_reduces_as_usual) is
 * remembered in the Constructor of its __new__ with the class's version
 * tag, which CPython changes whenever the class or a base is changed, and
 * with copyreg's dispatch table: the one copyreg had when first looked at,
 * as copy and pickle keep the one they imported. Not on free-threaded
 * builds. */

/* The ConstructorData of type where its class-level checks held at its
 * present version, else NULL (borrowed: read before Python code runs). */
static ConstructorData *
checked_class_data(PyTypeObject *type)
{
#ifndef Py_GIL_DISABLED
    ConstructorData *data = constructor_data_of(type);
    if (data != NULL && data->dispatch_table != NULL && class_version(type) != 0
        && data->copied_type == type && data->copied_version == class_version(type)) {
        return data;
    }
#endif
    return NULL;
}

/* 1 if copyreg's dispatch table has no reducer for type (which copy would
 * use first for a class without __copy__), 0 if it has one, -1 on error:
 * the table checked (checked_class_data) keeps, else copyreg's, which is
 * then remembered with the class's version, its class-level checks having
 * just held. */
static int
no_copyreg_reducer(PyTypeObject *type, ConstructorData *checked)
{
    if (checked != NULL) {
        int registered = table_has_reducer(checked->dispatch_table, type);
        return registered < 0 ? -1 : !registered;
    }
    PyObject *table = copyreg_dispatch_table();
    if (table == NULL) {
        return PyErr_Occurred() ? -1 : 1;
    }
#ifndef Py_GIL_DISABLED
    ConstructorData *data = constructor_data_of(type); /* nothing ran since the checks */
    if (data != NULL && class_version(type) != 0) {
        data->copied_type = type;
        data->copied_version = class_version(type);
        if (data->dispatch_table == NULL) {
            data->dispatch_table = Py_NewRef(table);
        }
    }
#endif
    int registered = table_has_reducer(table, type);
    Py_DECREF(table);
    return registered < 0 ? -1 : !registered;
}

/* 1 if copy would make the copy of self item by item were its class without
 * __copy__: pickled as usual (class_reduces_as_usual, no instance
 * attributes) and no reducer in copyreg's table (-1 on error). */
static int
copied_as_usual(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    ConstructorData *checked = checked_class_data(type);
    if ((checked == NULL && !class_reduces_as_usual(type)) || !no_instance_attributes(self)) {
        return 0;
    }
    return no_copyreg_reducer(type, checked);
}

static PyObject *
record_copy(PyObject *self, PyObject *unused)
{
    int usual = copied_as_usual(self);
    if (usual <= 0) {
        return usual < 0 ? NULL : copy_by_reduce(self, Py_None);
    }
    return copy_record(Py_TYPE(self), self);
}

/* 1 if copy.deepcopy returns item itself and records nothing in the memo:
 * an instance of exactly one of the types copy treats as atomic. */
static inline int
is_atomic(PyObject *item)
{
    return item == Py_None || PyLong_CheckExact(item) || PyUnicode_CheckExact(item)
           || PyFloat_CheckExact(item) || PyBool_Check(item) || PyBytes_CheckExact(item)
           || PyComplex_CheckExact(item);
}

static PyObject *deepcopy_items(PyObject *self, PyObject *memo);

static PyObject *
record_deepcopy(PyObject *self, PyObject *memo)
{
    int usual = copied_as_usual(self);
    if (usual <= 0) {
        return usual < 0 ? NULL : copy_by_reduce(self, memo);
    }
    return deepcopy_items(self, memo);
}

/* A new record of the class of self, of deep copies of its items, as
 * copy.deepcopy makes it from its reduction (memo: copy's, or None). */
static PyObject *
deepcopy_items(PyObject *self, PyObject *memo)
{
    PyObject *deepcopy = NULL; /* copy.deepcopy, at the first item that is not atomic */
    Py_ssize_t size = PyTuple_GET_SIZE(self);
    PyObject *items = PyTuple_New(size);
    PyObject *key = NULL, *result = NULL;
    for (Py_ssize_t i = 0; items != NULL && i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(self, i);
        if (!is_atomic(item) && deepcopy == NULL) {
            PyObject *copy = PyImport_ImportModule("copy");
            deepcopy = copy == NULL ? NULL : PyObject_GetAttrString(copy, "deepcopy");
            Py_XDECREF(copy);
            if (deepcopy == NULL) {
                Py_CLEAR(items);
                break;
            }
        }
        item = is_atomic(item) ? Py_NewRef(item)
                               : PyObject_CallFunctionObjArgs(deepcopy, item, memo, NULL);
        if (item == NULL) {
            Py_CLEAR(items);
            break;
        }
        PyTuple_SET_ITEM(items, i, item);
    }
    if (items != NULL && memo != Py_None && (key = PyLong_FromVoidPtr(self)) != NULL) {
        /* A copy made while copying the items (a record inside itself) is the
         * copy. Any mapping may be the memo, as in copy.deepcopy. */
        if (PyDict_CheckExact(memo)) {
            dict_get_ref(memo, key, &result);
        }
        else {
            result = PyObject_CallMethod(memo, "get", "O", key);
            if (result == Py_None) {
                Py_CLEAR(result);
            }
        }
        if (result == NULL && !PyErr_Occurred()) {
            result = copy_record(Py_TYPE(self), items);
            if (result != NULL && PyObject_SetItem(memo, key, result) < 0) {
                Py_CLEAR(result);
            }
        }
    }
    else if (items != NULL && memo == Py_None) {
        result = copy_record(Py_TYPE(self), items);
    }
    Py_XDECREF(key);
    Py_XDECREF(items);
    Py_XDECREF(deepcopy);
    return result;
}

/* (copyreg.__newobj__, (cls, *args)): pickled to be made again by cls.__new__,
 * on every protocol, as object.__reduce_ex__ does from protocol 2 on. Where
 * cls.__new__ is the generated one and __init__ is object's, calling the class
 * does the same faster: (cls, args) then. The instance's attributes, if it
 * has any, are the third item, as object.__reduce_ex__ gives them. */
static PyObject *
record_reduce(PyObject *self, PyObject *unused)
{
    PyTypeObject *type = Py_TYPE(self);
    PyTypeObject *record_base = record_base_of(type);
    PyObject *values;
    if (record_base != NULL
        && _PyType_Lookup(type, str_getnewargs) == _PyType_Lookup(record_base, str_getnewargs)) {
        values = PyTuple_GetSlice(self, 0, PyTuple_GET_SIZE(self));
    }
    else {
        values = PyObject_CallMethodNoArgs(self, str_getnewargs);
        if (values != NULL && !PyTuple_Check(values)) {
            PyErr_SetString(PyExc_TypeError, "__getnewargs__ should return a tuple");
            Py_CLEAR(values);
        }
    }
    if (values == NULL) {
        return NULL;
    }
    /* The instance's attributes, if it has any (a record that keeps its dict). */
    PyObject **dict = _PyObject_GetDictPtr(self);
    PyObject *state = dict != NULL && *dict != NULL && PyDict_GET_SIZE(*dict) != 0
                          ? Py_NewRef(*dict)
                          : NULL;
    PyObject *callable = NULL, *arguments = NULL, *result = NULL;
    PyObject *new = _PyType_Lookup(type, str_new); /* identity only */
    if (new != NULL && Py_IS_TYPE(new, &ConstructorType)
        && type->tp_init == PyBaseObject_Type.tp_init
        && Py_TYPE(type)->tp_call == PyType_Type.tp_call) {
        callable = Py_NewRef(type);
        arguments = Py_NewRef(values);
    }
    else {
        PyObject *copyreg = PyImport_ImportModule("copyreg");
        callable = copyreg == NULL ? NULL : PyObject_GetAttrString(copyreg, "__newobj__");
        Py_XDECREF(copyreg);
        PyObject *first[] = {(PyObject *)type};
        arguments = callable == NULL ? NULL : tuple_after(first, 1, values);
    }
    if (arguments != NULL) {
        result = state == NULL ? PyTuple_Pack(2, callable, arguments)
                               : PyTuple_Pack(3, callable, arguments, state);
    }
    Py_XDECREF(arguments);
    Py_XDECREF(callable);
    Py_XDECREF(state);
    Py_DECREF(values);
    return result;
}

static PyMethodDef record_method_defs[] = {
    {"_replace", (PyCFunction)(void (*)(void))record_replace, METH_FASTCALL | METH_KEYWORDS,
     "_replace($self, /, **changes)\n--\n\n"
     "Return a new record with the given fields replaced by new values."},
    {"_asdict", record_asdict, METH_NOARGS,
     "_asdict($self, /)\n--\n\nReturn a new dict which maps field names to their values."},
    {"__repr__", record_repr, METH_NOARGS,
     "__repr__($self, /)\n--\n\n"
     "Return ``Point(x=1, y=2)``: the class name and each field's repr."},
    {"__copy__", record_copy, METH_NOARGS,
     "__copy__($self, /)\n--\n\nReturn a new record of the same class with the same items."},
    {"__deepcopy__", record_deepcopy, METH_O,
     "__deepcopy__($self, memo, /)\n--\n\nReturn a new record of deep copies of the items."},
    {"__sizeof__", record_sizeof, METH_NOARGS,
     "__sizeof__($self, /)\n--\n\nSize of the record in memory, in bytes."},
    {"__reduce__", record_reduce, METH_NOARGS,
     "__reduce__($self, /)\n--\n\nPickle as made again by the class's __new__."},
    {"_make", (PyCFunction)(void (*)(void))record_make, METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "_make($type, iterable)\n--\n\n"
     "Make a new record from a sequence or iterable of field values."},
    {NULL, NULL, 0, NULL},
};

/* A descriptor of cls holding def: a method descriptor, or a classmethod one. */
static PyObject *
record_method_descriptor(PyTypeObject *cls, PyMethodDef *def)
{
    return (def->ml_flags & METH_CLASS) ? PyDescr_NewClassMethod(cls, def)
                                        : PyDescr_NewMethod(cls, def);
}

/* 1 if cls is a tuple subclass, else 0 with a TypeError naming function. */
static int
check_record_class(PyObject *cls, const char *function)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_Format(PyExc_TypeError, "%s() needs the Record class", function);
        return 0;
    }
    return 1;
}

/* record_method(cls, name): the C twin of method name, for @c_twin as cls is
 * made. No Python code runs here: both arguments stay borrowed. */
static PyObject *
records_record_method(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "record_method() takes the Record class and a name");
        return NULL;
    }
    if (!check_record_class(args[0], "record_method")) {
        return NULL;
    }
    for (PyMethodDef *def = record_method_defs; def->ml_name != NULL; def++) {
        if (PyUnicode_CompareWithASCIIString(args[1], def->ml_name) == 0) {
            return record_method_descriptor((PyTypeObject *)args[0], def);
        }
    }
    PyErr_Format(PyExc_LookupError, "Record.%U has no C twin", args[1]);
    return NULL;
}

/* record_methods(cls): every C twin, by name. */
static PyObject *
records_record_methods(PyObject *module, PyObject *cls)
{
    if (!check_record_class(cls, "record_methods")) {
        return NULL;
    }
    PyObject *methods = PyDict_New();
    if (methods == NULL) {
        return NULL;
    }
    for (PyMethodDef *def = record_method_defs; def->ml_name != NULL; def++) {
        PyObject *descriptor = record_method_descriptor((PyTypeObject *)cls, def);
        if (descriptor == NULL || PyDict_SetItemString(methods, def->ml_name, descriptor) < 0) {
            Py_XDECREF(descriptor);
            Py_DECREF(methods);
            return NULL;
        }
        Py_DECREF(descriptor);
    }
    return methods;
}
