import type { Element, ElementContent } from 'hast';
import type { BlockContent, DefinitionContent, Paragraph, RootContent } from 'mdast';
import type { MdxJsxFlowElement } from 'mdast-util-mdx';
import type { Options as RemarkRehypeOptions } from 'remark-rehype';
import type { Strings } from '../i18n.js';

/**
 * The few components a page may use. Each has exactly two renderings: HTML for people and
 * plain Markdown for machines, so nothing a page says is lost in either.
 */
export const COMPONENT_NAMES = ['Callout', 'Tabs', 'Tab', 'OpenApiReference'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];
export const CALLOUT_TYPES = ['note', 'tip', 'warning'] as const;
export type CalloutType = (typeof CALLOUT_TYPES)[number];

export function isComponentName(name: string): name is ComponentName {
  return (COMPONENT_NAMES as readonly string[]).includes(name);
}

function attribute(node: MdxJsxFlowElement, name: string): string | undefined {
  for (const attr of node.attributes) {
    if (attr.type === 'mdxJsxAttribute' && attr.name === name && typeof attr.value === 'string') {
      return attr.value;
    }
  }
  return undefined;
}

function calloutType(node: MdxJsxFlowElement): CalloutType {
  const type = attribute(node, 'type');
  return (CALLOUT_TYPES as readonly string[]).includes(type ?? '') ? (type as CalloutType) : 'note';
}

type FlowContent = BlockContent | DefinitionContent;

function label(text: string): Paragraph {
  return {
    type: 'paragraph',
    children: [{ type: 'strong', children: [{ type: 'text', value: text }] }],
  };
}

/**
 * A component as plain Markdown: a Callout becomes a blockquote opening with its bold label,
 * Tabs become one bold-labelled section per tab, in order. Called bottom-up (children first).
 */
export function componentToMarkdown(node: MdxJsxFlowElement, strings: Strings): RootContent[] {
  const children = node.children as FlowContent[];
  switch (node.name) {
    case 'Callout': {
      const title = `${strings.callout[calloutType(node)]}:`;
      const [first, ...rest] = children;
      const strong = {
        type: 'strong' as const,
        children: [{ type: 'text' as const, value: title }],
      };
      const opening: FlowContent[] =
        first?.type === 'paragraph'
          ? [
              { ...first, children: [strong, { type: 'text', value: ' ' }, ...first.children] },
              ...rest,
            ]
          : [{ type: 'paragraph', children: [strong] }, ...children];
      return [{ type: 'blockquote', children: opening }];
    }
    case 'Tabs':
      // Conversion runs bottom-up: each Tab is already its labelled section.
      return children;
    case 'Tab':
      return [label(attribute(node, 'label') ?? ''), ...children];
    default:
      // OpenApiReference is expanded before this point; anything else was refused at parse time.
      return [];
  }
}

type Handler = NonNullable<NonNullable<RemarkRehypeOptions['handlers']>['mdxJsxFlowElement']>;
type State = Parameters<Handler>[0];

function element(
  tagName: string,
  properties: Element['properties'],
  children: ElementContent[],
): Element {
  return { type: 'element', tagName, properties, children };
}

/**
 * remark-rehype handlers for the components. Tabs are radio buttons styled by CSS, so they
 * work without any script (the HTML CSP allows none).
 */
export function componentHandlers(strings: Strings): Handler {
  let tabGroups = 0;
  return (state: State, node: MdxJsxFlowElement): Element | undefined => {
    switch (node.name) {
      case 'Callout': {
        const type = calloutType(node);
        return element('aside', { className: ['callout', `callout-${type}`], role: 'note' }, [
          element('p', { className: ['callout-title'] }, [
            { type: 'text', value: strings.callout[type] },
          ]),
          ...state.all(node),
        ]);
      }
      case 'Tabs': {
        tabGroups += 1;
        const group = `tabs-${tabGroups}`;
        const tabs = node.children.filter(
          (child): child is MdxJsxFlowElement => child.type === 'mdxJsxFlowElement',
        );
        const children: ElementContent[] = tabs.flatMap((tab, index) => {
          const id = `${group}-${index}`;
          return [
            element(
              'input',
              { type: 'radio', name: group, id, className: ['tab-input'], checked: index === 0 },
              [],
            ),
            element('label', { htmlFor: [id], className: ['tab-label'] }, [
              { type: 'text', value: attribute(tab, 'label') ?? '' },
            ]),
            element('div', { className: ['tab-panel'] }, state.all(tab)),
          ];
        });
        return element('div', { className: ['tabs'] }, children);
      }
      default:
        return undefined;
    }
  };
}
