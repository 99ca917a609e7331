// Web Push for one seat of this game: "Notify me" also subscribes this
// browser, through the service worker at /sw.js, so the player hears of
// the game (their turn, the opponent joined, the end, a rematch offer,
// little time left) when no page of it is open. The browser holds one
// push subscription for the whole site; each game's seat hands it to the
// server (PUT /api/v1/games/{id}/push) and takes it back when unticked
// (DELETE), so other games keep theirs. Permission is asked only when the
// player ticks the box (turn-alerts.js). Where the browser has no push,
// the box keeps working for a hidden tab and says so.

import { api } from '../lib/api.js';
import { currentLanguage } from '../lib/i18n.js';

// The key as the Push API wants it: bytes of the base64url text.
function keyBytes(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(a, b) {
  if (!a || a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

export class GamePush {
  // token(): the seat token this page plays, or null (a spectator, hot-seat).
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
  }

  static supported() {
    return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window;
  }

  // This browser's subscription, made with the server's key (a subscription
  // made with another key, from a server whose key changed, is replaced).
  async subscription() {
    const registration = await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
    const key = keyBytes((await api.pushKey()).public_key);
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription.options?.applicationServerKey, key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    return subscription ?? registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }

  // Subscribes (on) or unsubscribes this seat; false when there is nothing
  // to do here (no seat, no push in this browser).
  async set(on) {
    const token = this.token();
    if (!token || !GamePush.supported()) return false;
    if (on) {
      const subscription = await this.subscription();
      await api.pushSubscribe(this.gameId, token, { ...subscription.toJSON(), lang: currentLanguage() });
      return true;
    }
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) await api.pushUnsubscribe(this.gameId, token, subscription.endpoint);
    return true;
  }
}
