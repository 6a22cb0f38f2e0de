/*
 * _replace, _asdict, __repr__ and _make of the Record base class: the Python
 * methods of records/_record.py marked @replaced_in_c, with their results
 * and messages (taken from records/_rules.py on the error paths).
 *
 * Part of records/_accelerator_c.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */

/* The record's _fields, as a tuple (new reference), or NULL with an error. */
static PyObject *
fields_of(PyObject *self)
{
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
    /* The new values, checked, before the record exists. */
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *values = PyTuple_GetSlice(self, 0, size);
    PyObject *unknown = NULL, *record = NULL;
    if (values == NULL) {
        goto done;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t index = field_index(fields, size, name);
        if (index < 0) {
            if ((unknown == NULL && (unknown = PyList_New(0)) == NULL)
                || PyList_Append(unknown, name) < 0) {
                goto done;
            }
            continue;
        }
        Py_SETREF(((PyTupleObject *)values)->ob_item[index], Py_NewRef(args[k]));
    }
    if (unknown != NULL) {
        raise_rule(UNKNOWN_FIELD_ERROR, "unexpected_fields_message", "(O)", unknown);
        goto done;
    }
    record = copy_record(Py_TYPE(self), values);

done:
    Py_XDECREF(unknown);
    Py_XDECREF(values);
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

static PyMethodDef record_method_defs[] = {
    {"_replace", (PyCFunction)(void (*)(void))record_replace, METH_FASTCALL | METH_KEYWORDS,
     "_replace($self, /, **changes)\n--\n\n"
     "Return a new record with the given fields replaced by new values."},
    {"_asdict", record_asdict, METH_NOARGS,
     "_asdict($self, /)\n--\n\nReturn a new dict which maps field names to their values."},
    {"__repr__", record_repr, METH_NOARGS,
     "__repr__($self, /)\n--\n\n"
     "Return ``Point(x=1, y=2)``: the class name and each field's repr."},
    {"_make", record_make, METH_O | METH_CLASS,
     "_make($type, iterable, /)\n--\n\n"
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
