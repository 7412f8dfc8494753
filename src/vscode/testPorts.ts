// The one test adapter: a port the composition root hands to an area by constructor, which the in-host
// tests may replace in part (a fixed volume pick instead of the picker) through the test API. No area
// offers a setter for it, and no area reaches another through the test API.

/** The ports the in-host tests may replace, by name. */
export interface TestPortNames {
  /** Run on GPU's NAS side (folder sync, volume pick, open outputs), from the NAS area. */
  nasRunHooks: object;
  /** Where the machines' ssh config goes (`sshDir()`, the user's ~/.ssh), from the machine connect area. */
  machineSsh: object;
}

export class TestPorts {
  private readonly replaced = new Map<keyof TestPortNames, Record<PropertyKey, unknown>>();

  /** `real`, except the members a test replaced (read at each use, so a replacement takes effect at once). */
  port<T extends object>(name: keyof TestPortNames, real: T): T {
    return new Proxy(real, {
      get: (target, key) => {
        const replaced = this.replaced.get(name);
        return replaced && key in replaced ? replaced[key] : Reflect.get(target, key, target);
      },
    });
  }

  /** Replaces some members of a port until `restore` (the tests' hook). */
  replace(name: keyof TestPortNames, members: object): void {
    this.replaced.set(name, members as Record<PropertyKey, unknown>);
  }

  restore(name: keyof TestPortNames): void {
    this.replaced.delete(name);
  }
}
