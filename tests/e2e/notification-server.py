#!/usr/bin/python3
"""A desktop notification server (org.freedesktop.Notifications) for the
browser tests, on the session bus named by DBUS_SESSION_BUS_ADDRESS.

Chromium on Linux shows a web page's notifications through this D-Bus
interface when a server owns the name, and turns the server's
ActionInvoked(id, "default") signal into a click: the service worker gets a
real, trusted notificationclick, allowed to open a window. No DevTools
command clicks a notification, so this is how tests/e2e/push.test.mjs
clicks one the way a person's desktop would.

Protocol with the test, one JSON object a line:
  out: {"ready": true} once the name is owned;
       {"id": N, "summary": ..., "body": ..., "actions": [...]} per Notify;
       {"closed": N} per CloseNotification.
  in:  {"click": N} emits ActionInvoked(N, "default");
       end of input stops the server.
Uses Debian's python3-dbus and python3-gi (GLib's main loop)."""

import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = 'org.freedesktop.Notifications'
PATH = '/org/freedesktop/Notifications'


def say(message):
    sys.stdout.write(json.dumps(message) + '\n')
    sys.stdout.flush()


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.next_id = 0

    @dbus.service.method(NAME, in_signature='', out_signature='as')
    def GetCapabilities(self):
        return ['actions', 'body', 'body-markup']

    @dbus.service.method(NAME, in_signature='', out_signature='ssss')
    def GetServerInformation(self):
        return ('phantomgo-test', 'phantomgo', '1', '1.2')

    @dbus.service.method(NAME, in_signature='susssasa{sv}i', out_signature='u')
    def Notify(self, app_name, replaces_id, icon, summary, body, actions, hints, timeout):
        if replaces_id:
            number = int(replaces_id)
        else:
            self.next_id += 1
            number = self.next_id
        say({'id': number, 'summary': str(summary), 'body': str(body), 'actions': [str(a) for a in actions]})
        return dbus.UInt32(number)

    @dbus.service.method(NAME, in_signature='u', out_signature='')
    def CloseNotification(self, number):
        say({'closed': int(number)})
        self.NotificationClosed(number, dbus.UInt32(3))

    @dbus.service.signal(NAME, signature='us')
    def ActionInvoked(self, number, action):
        pass

    @dbus.service.signal(NAME, signature='uu')
    def NotificationClosed(self, number, reason):
        pass


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    owned = bus.request_name(NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if owned != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        sys.exit('notification-server: the name %s is taken' % NAME)
    server = Notifications(bus)
    loop = GLib.MainLoop()

    def on_input(channel, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        command = json.loads(line)
        if 'click' in command:
            server.ActionInvoked(dbus.UInt32(command['click']), 'default')
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_input)
    say({'ready': True})
    loop.run()


if __name__ == '__main__':
    main()
