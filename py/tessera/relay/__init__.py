"""The relay: a small server two players' pages talk through to play remotely.

A server-side program (``python3 -m tessera relay``), never imported by the
page: the app only needs the protocol it speaks (``protocol.py``).  Its
parts, each usable alone:

* ``protocol`` - the versioned JSON messages and their strict parser;
* ``rooms``    - one game's room: the record, seats held by secrets, clock,
  draw offers and takeback requests, replayed through the same engines the
  page runs;
* ``store``    - where rooms live (``RoomStore``; ``MemoryStore`` in one
  process);
* ``redis_store`` - ``RedisStore``: rooms in Redis, shared by several relay
  processes (``relay --redis URL``);
* ``server``   - the websockets shell: connections, limits, presence.

Only ``server`` needs the ``websockets`` library and only ``redis_store``
the ``redis`` one; each imports it when a relay is started or a store made,
so every module here imports without them (the site's build imports the
whole package in Pyodide).
"""
