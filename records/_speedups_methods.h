/*
 * _replace, _asdict, __repr__ and _make of the Record base class.
 *
 * Part of records/_speedups.c, which includes it once, after its interned
 * strings; not compiled on its own.
 */

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
