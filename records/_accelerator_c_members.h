/*
 * Field accessors as member descriptors, and what makes them safe.
 *
 * A member descriptor of type Py_T_OBJECT_EX at the offset of item i reads
 * that item directly, and the interpreter specialises the read
 * (LOAD_ATTR_SLOT): record.x as fast as a __slots__ attribute. It checks no
 * bounds, so every instance it can be given must hold room for item i:
 *
 *   - every record class allocates through record_alloc, which leaves room
 *     for every field of the class (the missing ones NULL: reading one raises
 *     AttributeError; len() stays the number of items given), and refuses
 *     while the class is being built (mark_building);
 *   - the number of fields is kept where no Python code can change it: the
 *     class's tp_cache, which CPython no longer uses and releases with the
 *     class (checked when the accelerator loads); a class's count is at
 *     least that of every record class in its MRO;
 *   - tuple.__new__ cannot make records (record_tp_new on Record makes it
 *     refuse them, as it refuses any type with a __new__ of its own), so an
 *     instance is only ever made through a record's own constructor. This
 *     also covers a subclass that Record's __init_subclass__ never saw (its
 *     base's __init_subclass__ did not call it): CPython gives it the
 *     generic allocation, and it inherits member descriptors;
 *   - __class__ can change only to a record class whose fields the instance
 *     holds (record_class_setter), and never from or to another kind of
 *     tuple (record_free differs from theirs, which CPython checks);
 *   - the PyMemberDef and its strings live in the descriptor's own memory,
 *     which holds its class: they live exactly as long as it does.
 *
 * A member descriptor pickles as getattr(its class, its name). cloudpickle,
 * joblib and dill pickle a class that cannot be found by name (defined in
 * __main__ or in a function) by value: from its dict, where that getattr
 * cannot work. Those classes keep the bounds-checked accessor
 * (pickled_by_value).
 *
 * Part of records/_accelerator_c.c, which includes it once, after its
 * interned strings; not compiled on its own.
 */

#if PY_VERSION_HEX < 0x030C0000
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

/* 1 once protect() found Record's tp_cache empty: a heap type starts with
 * none, and releases what it holds when it is freed (CPython 3.10 to 3.15,
 * whose headers say "no longer used"; a test checks that 100,000 record
 * classes come and go without growth). */
static int tp_cache_is_free = 0;

#if PY_VERSION_HEX < 0x030C0000
/* A twin of member_descriptor whose items are bytes: an allocation of its
 * size plus room for a PyMemberDef and its strings (3.12+ has
 * PyUnstable_Object_GC_NewWithExtraData for this). Never readied nor
 * exposed: only its size and flags are read, by _PyObject_GC_NewVar. */
static PyTypeObject MemberTwinType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "records._accelerator_c.member_descriptor_allocation",
    .tp_itemsize = 1,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
};
#endif

/* The tp_free of record classes: PyObject_GC_Del, under another name, so
 * that CPython refuses __class__ assignment between records and other types. */
static void
record_free(void *object)
{
    PyObject_GC_Del(object);
}

/* Mark the new record class cls as being built: instances are refused until
 * set_item_count() gives the number of its fields. */
static void
mark_building(PyTypeObject *cls)
{
    Py_XSETREF(cls->tp_cache, Py_NewRef(Py_None));
}

/* The most fields of the record classes in cls's MRO after skip entries
 * (each a count set by set_item_count); -2 if one of them is being built
 * (then *building is it), -1 if none is a record class. Mix-ins (another
 * tp_free) are passed over. */
static Py_ssize_t
mro_item_count(PyTypeObject *cls, Py_ssize_t skip, PyTypeObject **building)
{
    PyObject *mro = cls->tp_mro;
    if (mro == NULL || !PyTuple_Check(mro)) {
        return -2;
    }
    Py_ssize_t room = -1;
    for (Py_ssize_t i = skip; i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *type = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        if (type->tp_free != record_free) {
            continue;
        }
        PyObject *mark = type->tp_cache;
        if (mark == Py_None) {
            *building = type;
            return -2;
        }
        if (mark != NULL && PyLong_CheckExact(mark)) {
            Py_ssize_t count = PyLong_AsSsize_t(mark);
            room = count > room ? count : room;
        }
    }
    return room;
}

/* Finish the record class cls: room for count items in each instance, or for
 * more if a record class in its MRO has more fields (a member descriptor it
 * inherits may read any of them). A base still being built is refused. */
static int
set_item_count(PyTypeObject *cls, Py_ssize_t count)
{
    PyTypeObject *building = cls;
    Py_ssize_t inherited = mro_item_count(cls, 1, &building);
    if (inherited == -2) {
        raise_rule(PyExc_TypeError, "not_finished_message", "(O)",
                   ((PyHeapTypeObject *)building)->ht_name);
        return -1;
    }
    if (inherited > count) {
        count = inherited;
    }
    PyObject *value = PyLong_FromSsize_t(count);
    if (value == NULL) {
        return -1;
    }
    Py_XSETREF(cls->tp_cache, value);
    return 0;
}

/* The number of items every instance of cls has room for; -2 while cls (or,
 * for a class Record's __init_subclass__ did not finish, a record class in
 * its MRO) is being built, -1 if it is not a record class. */
static Py_ssize_t
item_count(PyTypeObject *cls)
{
    if (cls->tp_free != record_free) {
        return -1;
    }
    PyObject *mark = cls->tp_cache;
    if (mark == Py_None) {
        return -2;
    }
    if (mark != NULL && PyLong_CheckExact(mark)) {
        return PyLong_AsSsize_t(mark);
    }
    PyTypeObject *building = cls;
    return mro_item_count(cls, 0, &building);
}

static PyObject *
record_alloc(PyTypeObject *cls, Py_ssize_t nitems)
{
    Py_ssize_t room = item_count(cls);
    if (room == -2) {
        raise_rule(PyExc_TypeError, "not_finished_message", "(O)",
                   ((PyHeapTypeObject *)cls)->ht_name);
        return NULL;
    }
    if (room < nitems) {
        room = nitems;
    }
    PyObject *record = PyType_GenericAlloc(cls, room);
    if (record == NULL) {
        return NULL;
    }
    Py_SET_SIZE(record, nitems);
    reset_hash_cache(record);
    return record;
}

/* A new record of cls with size items (NULL, to be filled), through
 * record_alloc. A subclass Record's __init_subclass__ never saw has CPython's
 * generic allocation and inherits member descriptors (perhaps of two record
 * bases): it gets room for the most fields of the record classes in its MRO
 * the same way. Every record the accelerator makes is made here. */
static PyObject *
allocate_record(PyTypeObject *cls, Py_ssize_t size)
{
    if (cls->tp_alloc == record_alloc || !tp_cache_is_free) {
        return cls->tp_alloc(cls, size);
    }
    PyTypeObject *building = cls;
    Py_ssize_t room = mro_item_count(cls, 0, &building);
    if (room == -2) {
        raise_rule(PyExc_TypeError, "not_finished_message", "(O)",
                   ((PyHeapTypeObject *)building)->ht_name);
        return NULL;
    }
    PyObject *record = cls->tp_alloc(cls, room > size ? room : size);
    if (record != NULL) {
        Py_SET_SIZE(record, size);
        reset_hash_cache(record);
    }
    return record;
}

/* Give the new subclass cls of Record the allocation of records, before any
 * of its instances can be made: room for the fields of its base until its
 * own are known, and none while it is being built. */
static void
prepare_allocation(PyTypeObject *cls)
{
    /* Once only: __init_subclass__ called again on a finished record class
     * (which then raises) must not leave it refusing instances. */
    if (!tp_cache_is_free || !(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || cls->tp_free == record_free) {
        return;
    }
    cls->tp_alloc = record_alloc;
    cls->tp_free = record_free;
    mark_building(cls);
}

/* A member descriptor for item index of cls, named name, documented by doc,
 * whose PyMemberDef and strings are stored in its own memory. */
static PyObject *
make_member(PyTypeObject *cls, PyObject *name, Py_ssize_t index, PyObject *doc)
{
    Py_ssize_t name_size, doc_size;
    const char *name_text = PyUnicode_AsUTF8AndSize(name, &name_size);
    const char *doc_text = PyUnicode_Check(doc) ? PyUnicode_AsUTF8AndSize(doc, &doc_size) : NULL;
    if (name_text == NULL || doc_text == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "an accessor's doc must be a str");
        }
        return NULL;
    }
    Py_ssize_t extra = (Py_ssize_t)sizeof(PyMemberDef) + name_size + 1 + doc_size + 1;
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *object = PyUnstable_Object_GC_NewWithExtraData(&PyMemberDescr_Type, (size_t)extra);
#else
    /* The same allocation, made through a twin of member_descriptor whose
     * items are bytes: then it is one. */
    PyObject *object = (PyObject *)_PyObject_GC_NewVar(&MemberTwinType, extra);
    if (object != NULL) {
        Py_SET_TYPE(object, &PyMemberDescr_Type);
    }
#endif
    if (object == NULL) {
        return NULL;
    }
    PyMemberDescrObject *descriptor = (PyMemberDescrObject *)object;
    PyMemberDef *member = (PyMemberDef *)((char *)object + PyMemberDescr_Type.tp_basicsize);
    char *strings = (char *)(member + 1);
    memcpy(strings, name_text, (size_t)name_size + 1);
    memcpy(strings + name_size + 1, doc_text, (size_t)doc_size + 1);
    member->name = strings;
    member->type = Py_T_OBJECT_EX;
    member->offset = (Py_ssize_t)offsetof(PyTupleObject, ob_item)
                     + index * (Py_ssize_t)sizeof(PyObject *);
    member->flags = Py_READONLY;
    member->doc = strings + name_size + 1;
    descriptor->d_common.d_type = (PyTypeObject *)Py_NewRef(cls);
    descriptor->d_common.d_name = Py_NewRef(name);
    descriptor->d_common.d_qualname = NULL;
    descriptor->d_member = member;
    PyObject_GC_Track(object);
    return object;
}

/* 1 if cls is a class that cloudpickle and dill would pickle by value: one
 * defined in __main__ or inside a function (the rule of
 * _builder.pickled_by_value); -1 on error. */
static int
pickled_by_value(PyTypeObject *cls)
{
    PyObject *module = PyDict_GetItemWithError(cls->tp_dict, str_module);
    if (module == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (module != NULL && PyUnicode_CheckExact(module) && PyUnicode_Compare(module, str_main) == 0) {
        return 1;
    }
    PyObject *qualname = ((PyHeapTypeObject *)cls)->ht_qualname;
    return qualname != NULL && PyUnicode_Contains(qualname, str_locals);
}

/* Record's tp_new: what a __new__ written in Python gives a type (look
 * __new__ up and call it), so that tuple.__new__ refuses every record class,
 * as CPython refuses any type whose __new__ differs from tuple's. */
static PyObject *
record_tp_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *new = PyObject_GetAttr((PyObject *)type, str_new);
    if (new == NULL) {
        return NULL;
    }
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *arguments = PyTuple_New(nargs + 1);
    PyObject *result = NULL;
    if (arguments != NULL) {
        PyTuple_SET_ITEM(arguments, 0, Py_NewRef(type));
        for (Py_ssize_t i = 0; i < nargs; i++) {
            PyTuple_SET_ITEM(arguments, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
        }
        result = PyObject_Call(new, arguments, kwargs);
        Py_DECREF(arguments);
    }
    Py_DECREF(new);
    return result;
}

/* new_record(cls, iterable): tuple.__new__(cls, iterable) for record
 * classes, through their own allocation. The generated __new__ functions
 * call it as _tuple_new. */
static PyObject *
records_new_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyType_Check(args[0])
        || !PyType_IsSubtype((PyTypeObject *)args[0], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "new_record() takes a tuple subclass and an iterable");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    PyObject *values = PySequence_Tuple(args[1]);
    if (values == NULL) {
        return NULL;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(values);
    PyObject *record = allocate_record(cls, size);
    if (record != NULL) {
        reset_hash_cache(record);
        for (Py_ssize_t i = 0; i < size; i++) {
            ((PyTupleObject *)record)->ob_item[i] = Py_NewRef(PyTuple_GET_ITEM(values, i));
        }
    }
    Py_DECREF(values);
    return record;
}

static PyObject *
record_class_getter(PyObject *self, void *closure)
{
    return Py_NewRef(Py_TYPE(self));
}

/* __class__ = cls on a record: only to a record class whose fields it holds,
 * then as object.__class__ does it. */
static int
record_class_setter(PyObject *self, PyObject *value, void *closure)
{
    if (value != NULL && PyType_Check(value)) {
        /* A class Record's __init_subclass__ never saw reads the fields of
         * the record classes in its MRO. */
        PyTypeObject *target = (PyTypeObject *)value, *building = target;
        Py_ssize_t needed = target->tp_free == record_free ? item_count(target)
                                                           : mro_item_count(target, 0, &building);
        if (needed == -2 || needed > Py_SIZE(self)) {
            raise_rule(PyExc_TypeError, "class_assignment_message", "(OnO)",
                       ((PyHeapTypeObject *)Py_TYPE(self))->ht_name, PyTuple_GET_SIZE(self),
                       value);
            return -1;
        }
    }
    /* object's own __class__ descriptor (3.12+ keeps the dicts of static
     * types out of tp_dict). */
    PyObject *descriptor = _PyType_Lookup(&PyBaseObject_Type, str_class);
    if (descriptor == NULL || Py_TYPE(descriptor)->tp_descr_set == NULL) {
        PyErr_SetString(PyExc_TypeError, "object has no __class__ descriptor");
        return -1;
    }
    Py_INCREF(descriptor);
    int result = Py_TYPE(descriptor)->tp_descr_set(descriptor, self, value);
    Py_DECREF(descriptor);
    return result;
}

static PyGetSetDef record_class_def = {
    "__class__", record_class_getter, record_class_setter,
    "The record's class; only a record class with no more fields can replace it.", NULL,
};

/* protect(Record): Record's tp_new, tp_alloc and tp_free, and its __class__
 * descriptor, as described above; False where tp_cache cannot be used (then
 * records keep their bounds-checked accessors). */
static PyObject *
records_protect(PyObject *module, PyObject *record)
{
    if (!PyType_Check(record) || !(((PyTypeObject *)record)->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        PyErr_SetString(PyExc_TypeError, "protect() needs the Record class");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)record;
    if (cls->tp_cache != NULL && cls->tp_free != record_free) {
        Py_RETURN_FALSE; /* tp_cache in use: not a CPython this was checked on */
    }
    tp_cache_is_free = 1;
#if PY_VERSION_HEX < 0x030C0000
    MemberTwinType.tp_basicsize = PyMemberDescr_Type.tp_basicsize;
#endif
    PyObject *descriptor = PyDescr_NewGetSet(cls, &record_class_def);
    if (descriptor == NULL) {
        return NULL;
    }
    int failed = PyDict_SetItem(cls->tp_dict, str_class, descriptor);
    Py_DECREF(descriptor);
    if (failed || set_item_count(cls, 0) < 0) {
        return NULL;
    }
    cls->tp_new = record_tp_new;
    cls->tp_alloc = record_alloc;
    cls->tp_free = record_free;
    PyType_Modified(cls);
    Py_RETURN_TRUE;
}

static PyObject *
records_prepare(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "prepare() needs a class");
        return NULL;
    }
    prepare_allocation((PyTypeObject *)cls);
    Py_RETURN_NONE;
}

/* member(cls, name, index, doc): make_member, for the Python class builder. */
static PyObject *
records_member(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t index = nargs == 4 ? PyLong_AsSsize_t(args[2]) : -1;
    if (nargs != 4 || !PyType_Check(args[0]) || !PyUnicode_CheckExact(args[1]) || index < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "member() takes a class, a name, an index and a doc");
        }
        return NULL;
    }
    if (item_count((PyTypeObject *)args[0]) != -2) {
        PyErr_SetString(PyExc_TypeError, "member() needs a record class being built");
        return NULL;
    }
    return make_member((PyTypeObject *)args[0], args[1], index, args[3]);
}
