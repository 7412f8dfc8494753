import '../helpers/englishL10n';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Region } from '../../../src/core/compute/api';
import { imageTemplates, nodesNote, preselectRegion, scaleCostNote, type L10n } from '../../../src/vscode/tasks/createDefaults';
import { validateImage, parsePorts } from '../../../src/vscode/tasks/taskInput';

const t = { t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, index: string) => String(args[Number(index)])) } as L10n;

function region(tag: string, price: number | null, inventory: number, discount: number | null = price): Region {
  return {
    region: tag,
    region_name: tag,
    price,
    discount_price: discount,
    inventory,
    mark: { mark: 'm', resource: { device_name: 'd', region: tag, gpu_name: 'g', gpu_count: 1, gpu_memory: 1, memory: 1, cpu_cores: 1 } },
  };
}
const offer = (device: string, r: Region) => ({ device: { device_name: device }, region: r });

describe('create and scale safety', () => {
  it('preselects the cheapest in-stock region, never a sold-out or unpriced one', () => {
    const choices = [offer('H20 x 8', region('a', 16416, 3)), offer('4090', region('b', 300, 0)), offer('4090', region('c', 500, 2, 466)), offer('L40S', region('d', null, 9))];
    assert.equal(preselectRegion(choices)?.region.region, 'c');
    assert.equal(preselectRegion(choices, { deviceName: '4090', region: 'b' })?.region.region, 'c', 'a sold-out hint is not preselected');
    assert.equal(preselectRegion(choices, { deviceName: 'H20 x 8', region: 'a' })?.region.region, 'a', 'an in-stock hint is honoured');
    assert.equal(preselectRegion([offer('x', region('z', 1, 0))]), undefined);
  });

  it('never preselects a sold-out region (property)', () => {
    const arbitraryRegion = fc.record({ price: fc.option(fc.integer({ min: 1, max: 20000 })), inventory: fc.integer({ min: 0, max: 5 }) });
    fc.assert(
      fc.property(fc.array(arbitraryRegion, { maxLength: 12 }), (specs) => {
        const choices = specs.map((spec, index) => offer('d', region(`r${index}`, spec.price, spec.inventory)));
        const picked = preselectRegion(choices);
        const sellable = choices.filter((c) => c.region.inventory > 0 && c.region.price !== null);
        if (sellable.length === 0) return assert.equal(picked, undefined);
        assert.ok(picked && picked.region.inventory > 0);
        assert.equal(picked.region.price, Math.min(...sellable.map((c) => c.region.price ?? Infinity)));
      }),
    );
  });

  it('shows nodes × ¥/h, and warns when nodes exceed inventory', () => {
    assert.deepEqual(nodesNote(2, region('b', 466, 15), t), { severity: 'info', text: '2 × ¥1.6776/h = ¥3.3552/h' });
    const over = nodesNote(50, region('b', 466, 15), t);
    assert.equal(over?.severity, 'warning');
    assert.match(over?.text ?? '', /^50 × ¥1\.6776\/h = ¥83\.88\/h: only 15 available in b/);
    assert.match(nodesNote(1, region('b', 466, 0), t)?.text ?? '', /sold out/);
  });

  it('states the cost change of a scale', () => {
    assert.equal(scaleCostNote(2, 4, 466, t), '¥3.3552/h → ¥6.7104/h (+¥3.3552/h)');
    assert.equal(scaleCostNote(4, 1, 466, t), '¥6.7104/h → ¥1.6776/h (-¥5.0328/h)');
    assert.match(scaleCostNote(1, 2, undefined, t), /not known/);
  });

  it('offers vLLM, Jupyter and ComfyUI templates with valid images and ports', () => {
    const templates = imageTemplates(t);
    assert.deepEqual(templates.map((template) => template.id), ['vllm', 'jupyter', 'comfyui']);
    for (const template of templates) {
      assert.equal(validateImage(template.image), undefined, template.image);
      assert.ok('ports' in parsePorts(template.ports));
    }
  });
});
