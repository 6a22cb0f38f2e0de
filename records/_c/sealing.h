/*
 * Whether a new record class may have its layout sealed: the C twin of
 * may_seal() in records/_sealing.py, with the same checks (may_seal_here):
 * no code but CPython's own may have had the class, which its reference
 * count tells against the baseline a probe class measures.
 *
 * Part of records/_c/accelerator.c, which includes it once, after
 * builder_helpers.h; not compiled on its own.
 */

/* The baseline of a Builder whose probe class was immortal. */
#define NO_BASELINE (-2)

/* 1 if cls is immortal (its count says nothing): on free-threaded 3.13,
 * every class made once a second thread has existed, except while a
 * thread is in compile(). */
static inline int
is_immortal(PyTypeObject *cls)
{
#if PY_VERSION_HEX >= 0x030E0000
    return PyUnstable_IsImmortal((PyObject *)cls);
#elif PY_VERSION_HEX >= 0x030C0000
    return _Py_IsImmortal((PyObject *)cls);
#else
    (void)cls;
    return 0;
#endif
}

/* 1 if the calling thread is the only one of the interpreter, as the Python
 * twin asks (_thread._count()). Free-threaded 3.13 makes a class immortal
 * once a second thread exists, except while a thread is in compile(), which
 * suspends that: another thread could then take a mortal class before its
 * seal, and make an instance with a __dict__. Only this thread's own state
 * is read through: the others' may be freed meanwhile. */
static inline int
alone_in_interpreter(void)
{
#ifdef Py_GIL_DISABLED
    PyThreadState *current = PyThreadState_Get();
    return PyInterpreterState_ThreadHead(PyThreadState_GetInterpreter(current)) == current
           && PyThreadState_Next(current) == NULL;
#else
    return 1; /* with the GIL, no other thread runs until the seal is done */
#endif
}

/* 1 if cls is an enum class (its metaclass derives from enum's), else 0.
 * Looks only at what is loaded: no Python code runs. */
static int
is_enum_class(PyTypeObject *cls)
{
    PyObject *module = PyImport_GetModule(str_enum);
    if (module == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *meta = PyObject_GetAttr(module, str_enum_meta);
    Py_DECREF(module);
    if (meta == NULL) {
        PyErr_Clear();
        return 0;
    }
    int found = PyType_Check(meta) && PyType_IsSubtype(Py_TYPE(cls), (PyTypeObject *)meta);
    Py_DECREF(meta);
    return found;
}

/* The number of distinct closure cells that hold cls, in the functions of
 * its body (also those in staticmethod, classmethod and property): a body
 * whose methods use super() or __class__ has one. Stops counting at
 * MAX_CELLS, which only ever means fewer references are expected. */
#define MAX_CELLS 8

static PyMethodDef init_subclass_def;

static Py_ssize_t
cells_holding(PyTypeObject *cls)
{
    PyObject *seen[MAX_CELLS];
    Py_ssize_t count = 0, position = 0;
    PyObject *key, *value;
    while (count < MAX_CELLS && PyDict_Next(cls->tp_dict, &position, &key, &value)) {
        PyObject *function = value;
        if (Py_IS_TYPE(value, &PyStaticMethod_Type) || Py_IS_TYPE(value, &PyClassMethod_Type)) {
            /* Both keep their callable right after the object header, as
             * checked on staticmethod when the accelerator loads. */
            function = staticmethod_callable_offset < 0
                ? NULL : *(PyObject **)((char *)value + staticmethod_callable_offset);
        }
        /* Other holders (property, decorators) are not looked into: a cell
         * there only makes the class keep its __dict__ slot. */
        if (function != NULL && PyFunction_Check(function)) {
            PyObject *closure = PyFunction_GET_CLOSURE(function);
            for (Py_ssize_t i = 0; closure != NULL && i < PyTuple_GET_SIZE(closure); i++) {
                PyObject *cell = PyTuple_GET_ITEM(closure, i);
                if (!PyCell_Check(cell) || PyCell_GET(cell) != (PyObject *)cls) {
                    continue;
                }
                int known = 0;
                for (Py_ssize_t j = 0; j < count; j++) {
                    known |= seen[j] == cell;
                }
                if (!known && count < MAX_CELLS) {
                    seen[count++] = cell;
                }
            }
        }
    }
    return count;
}

/* 1 if a class between cls and record in its MRO has an __init_subclass__ of
 * its own: then Record's may be called after the class statement (that hook
 * need not call it while the class is made), when instances may exist that
 * the reference count cannot tell from the class statement's references. */
static int
hook_before_record(PyTypeObject *cls, PyTypeObject *record)
{
    PyObject *mro = cls->tp_mro;
    if (mro == NULL) {
        return 1;
    }
    Py_INCREF(mro);
    int found = 0;
    for (Py_ssize_t i = 1; i < PyTuple_GET_SIZE(mro) && !found; i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (base == record) {
            break;
        }
        PyObject *hook = base->tp_dict == NULL
                             ? NULL
                             : PyDict_GetItemWithError(base->tp_dict, str_init_subclass);
        found = hook != NULL ? 1 : (PyErr_Occurred() ? -1 : 0);
    }
    Py_DECREF(mro);
    return found;
}

/* 1 if the dict of cls holds a __dict__ descriptor made for it (which holds
 * a reference to it). No Python code runs. */
static int
owns_dict_descriptor(PyTypeObject *cls)
{
    PyObject *descriptor = cls->tp_dict == NULL ? NULL : PyDict_GetItem(cls->tp_dict, str_dict);
    return descriptor != NULL && Py_IS_TYPE(descriptor, &PyGetSetDescr_Type)
           && PyDescr_TYPE(descriptor) == cls;
}

/* Make a probe class the way a class statement makes a record class, and
 * measure the references it has when this Builder's __init_subclass__ is
 * called: its baseline. (The probe derives from a throwaway tuple subclass,
 * not from Record, so Record.__subclasses__() never lists it.) */
static int
measure_baseline(Builder *self)
{
    /* One thread measures; a class another thread builds meanwhile is not
     * sealed (the baseline is still unknown when it asks). */
    if (!swap_uintptr_if(&self->measuring, 0, (uintptr_t)PyThread_get_thread_ident())) {
        return 0;
    }
    PyObject *hook = NULL, *root = NULL, *probe = NULL;
    PyObject *function = PyCFunction_New(&init_subclass_def, (PyObject *)self);
    if (function != NULL) {
        hook = PyClassMethod_New(function);
    }
    if (hook != NULL) {
        /* Without a dict of its own, as Record: the probe gets one, as a
         * record class does, with the reference its descriptor holds. */
        root = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){sOsOsO}", "_RecordsProbeRoot",
                                     (PyObject *)&PyTuple_Type, "__init_subclass__", hook,
                                     "__module__", str_rules, "__slots__", empty_tuple);
    }
    if (root != NULL) {
        /* No collection (and no gc callback) while the probe is made: no
         * other code may hold it when it is counted. */
        int was_enabled = PyGC_Disable();
        probe = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){sO}", "_RecordsProbe", root,
                                      "__module__", str_rules);
        if (was_enabled) {
            PyGC_Enable();
        }
    }
    Py_XDECREF(probe);
    Py_XDECREF(root);
    Py_XDECREF(hook);
    Py_XDECREF(function);
    STORE_UINTPTR(self->measuring, 0);
    if (probe == NULL) {
        return -1;
    }
    if (LOAD_SSIZE(self->baseline) == -1) {
        PyErr_SetString(PyExc_RuntimeError, "the probe class was not measured");
        return -1;
    }
    return 0;
}

/*
 * 1 if no instance of the new class cls can exist, so its layout may be
 * sealed now, else 0. Every instance holds a reference to its class: cls
 * may be sealed only if it has no more references than a new class of no
 * instances has at this point (the baseline, plus the closure cells of its
 * body). Any code that had the class before (a base's __init_subclass__, a
 * __set_name__, a gc callback, a second call of __init_subclass__) and
 * kept an instance, or the class itself, leaves more, and the class keeps
 * its __dict__ slot. Enum classes keep it too: their members need one.
 * From here to the seal no Python code runs (a class dict whose keys are
 * not all exact str could run some in a lookup: it is not sealed).
 */
static int
may_seal_here(Builder *self, PyTypeObject *cls)
{
    if (cls->tp_dict == NULL || is_immortal(cls) || !alone_in_interpreter()) {
        return 0;
    }
    if (Py_TYPE(cls) != &PyType_Type) {
        int is_enum = is_enum_class(cls);
        if (is_enum != 0) {
            return is_enum < 0 ? -1 : 0;
        }
    }
    Py_ssize_t position = 0;
    PyObject *key, *value;
    while (PyDict_Next(cls->tp_dict, &position, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) {
            return 0;
        }
    }
    if (LOAD_SSIZE(self->baseline) == -1 && measure_baseline(self) < 0) {
        return -1;
    }
    Py_ssize_t baseline = LOAD_SSIZE(self->baseline);
    if (baseline < 0) { /* being measured by another thread, or NO_BASELINE */
        return 0;
    }
    /* A class without __dict__ from its body (__slots__ = ()) lacks the
     * reference the probe's __dict__ descriptor holds, where it has one. */
    Py_ssize_t allowed = baseline + cells_holding(cls)
                         - (self->probe_owns_dict && !owns_dict_descriptor(cls));
    return Py_REFCNT(cls) <= allowed;
}

/* 1 if instances of cls have no __dict__. */
static int
is_sealed(PyTypeObject *cls)
{
#if PY_VERSION_HEX >= 0x030C0000
    return cls->tp_dictoffset == 0 && !(cls->tp_flags & Py_TPFLAGS_MANAGED_DICT);
#else
    return cls->tp_dictoffset == 0;
#endif
}
